/**
 * `checkpoints clean --older-than AGE | --session ID | --all [--dry-run] [--json]`: a checkpoint goes with its
 * markers and kept summary, an unfinished write once stale, a session folder once empty; nothing else.
 */
import { join } from '../io/join-path.js';
import { checkpointId } from '../core/checkpoint.js';
import { planSessionClean, type CleanGroup, type SessionCleanPlan } from '../core/checkpoint-clean.js';
import { formatCount } from '../core/plural.js';
import { sanitizeText } from '../core/sanitize.js';
import {
  checkpointWrittenAt,
  readCheckpointRoot,
  readSessionFolder,
  removeFromSession,
  removeSessionFolderIfEmpty,
} from '../checkpoints/clean.js';
import { readablePrivateRoot } from '../checkpoints/fallback.js';
import { checkpointRoot, unsafeCheckpointDir } from '../checkpoints/store.js';
import { sanitizeId } from '../io/state.js';
import { parseSince } from './events.js';
import type { CliIO } from './command.js';
import { CliError, describeFsError, UsageError } from './errors.js';
import { toJsonOutput } from './output.js';
import { cliMessage } from './messages.js';

export type CleanOptions = { olderThan: string | undefined; session: string | undefined; all: boolean; dryRun: boolean; json: boolean };

/** `label`: the session as IDs name it (`private/<session>` in the private fallback folder). */
type Outcome = { session: string; label: string; dir: string; groups: CleanGroup[]; folderGone: boolean; leftAlone: LeftAlone[] };
type LeftAlone = { path: string; why: string };

/** One folder of session folders: the project's checkpoint folder, or the private fallback in the state directory. */
type Root = { root: string; prefix: string; sessions: string[]; links: string[] };

export function runClean(io: CliIO, where: { projectDir: string; stateDir: string }, o: CleanOptions, usage: string): number {
  if (!o.all && o.olderThan === undefined && o.session === undefined)
    throw new UsageError(cliMessage('checkpoints.clean-needs-selection'), usage);
  if (o.all && (o.olderThan !== undefined || o.session !== undefined))
    throw new UsageError(cliMessage('checkpoints.clean-all-alone'), usage);
  const now = Date.now();
  const cutoff = o.olderThan === undefined ? undefined : parseSince(o.olderThan, new Date(now));
  if (cutoff === null) throw new UsageError(cliMessage('checkpoints.older-than-invalid', { got: o.olderThan! }), usage);
  const root = checkpointRoot(where.projectDir);
  // A refused project folder (a symlink or a file on the way) is never cleaned through; the private fallback still is.
  const problem = unsafeCheckpointDir(root);
  const roots: Root[] = problem ? [] : [{ root, prefix: '', ...readCheckpointRoot(root) }];
  const privateRoot = readablePrivateRoot(where.stateDir, where.projectDir);
  if (privateRoot) roots.push({ root: privateRoot, prefix: 'private/', ...readCheckpointRoot(privateRoot) });
  if (problem && roots.length === 0) throw new CliError(problem);
  const chosen =
    o.session === undefined ? roots.flatMap((r) => r.sessions.map((session) => ({ r, session }))) : chooseSession(roots, o.session);
  const leftAlone =
    o.session === undefined
      ? roots.flatMap((r) => r.links.map((name) => ({ path: join(r.root, name), why: cliMessage('checkpoints.why-link') })))
      : [];
  const outcomes = chosen.map(({ r, session }) =>
    cleanSession(join(r.root, session), session, r.prefix, { cutoff, now, dryRun: o.dryRun }),
  );
  report(io, { root, privateRoot }, outcomes, [...leftAlone, ...outcomes.flatMap((outcome) => outcome.leftAlone)], o);
  if (!problem) return 0;
  io.err(`context-ceiling: ${problem}\n`);
  return 1;
}

/** The session's folder in the project and, when it has one there too, in the private fallback. */
function chooseSession(roots: Root[], raw: string): Array<{ r: Root; session: string }> {
  const session = sanitizeId(raw);
  for (const r of roots) {
    const problem = unsafeCheckpointDir(join(r.root, session));
    if (problem) throw new CliError(problem);
  }
  const found = roots.filter((r) => r.sessions.includes(session) || r.links.includes(session)).map((r) => ({ r, session }));
  if (found.length === 0) {
    const known = roots.flatMap((r) => r.sessions.map((name) => `${r.prefix}${name}`));
    throw new CliError(cliMessage('checkpoints.no-session', { session: sanitizeText(raw), known: sanitizeText(known.join(', ')) }));
  }
  return found;
}

function cleanSession(
  dir: string,
  session: string,
  prefix: string,
  c: { cutoff: number | undefined; now: number; dryRun: boolean },
): Outcome {
  try {
    return cleanSessionFolder(dir, session, prefix, c);
  } catch (error) {
    throw new CliError(cliMessage('checkpoints.cannot-clean', { path: dir, reason: describeFsError(error) }));
  }
}

function cleanSessionFolder(
  dir: string,
  session: string,
  prefix: string,
  c: { cutoff: number | undefined; now: number; dryRun: boolean },
): Outcome {
  const label = `${prefix}${session}`;
  const { files, entries } = readSessionFolder(dir);
  const plan: SessionCleanPlan = planSessionClean(files, { ...c, writtenAt: (sequence) => checkpointWrittenAt(dir, sequence) });
  const leftAlone = plan.leftAlone.map(({ name, why }) => ({
    path: join(dir, name),
    why: cliMessage(why === 'not-mine' ? 'checkpoints.why-not-mine' : 'checkpoints.why-not-a-file'),
  }));
  const planned = plan.remove.reduce((sum, group) => sum + group.names.length, 0);
  if (c.dryRun) return { session, label, dir, groups: plan.remove, folderGone: planned === entries, leftAlone };
  for (const group of plan.remove) removeFromSession(dir, group.names);
  return { session, label, dir, groups: plan.remove, folderGone: removeSessionFolderIfEmpty(dir), leftAlone };
}

function report(
  io: CliIO,
  where: { root: string; privateRoot: string | undefined },
  outcomes: Outcome[],
  leftAlone: LeftAlone[],
  o: CleanOptions,
): void {
  const root = where.privateRoot ? `${where.root} and ${where.privateRoot}` : where.root;
  for (const item of leftAlone)
    io.err(`${cliMessage('warning', { warning: cliMessage('checkpoints.left-alone', { ...item, path: sanitizeText(item.path) }) })}\n`);
  const groups = outcomes.flatMap((outcome) => outcome.groups);
  const folders = outcomes.filter((outcome) => outcome.folderGone);
  if (o.json) {
    const path = (outcome: Outcome, name: string) => join(outcome.dir, name);
    const entries = outcomes.flatMap((outcome) =>
      outcome.groups.map((group) => ({
        id: group.sequence === undefined ? null : `${outcome.label}/${checkpointId(group.sequence)}`,
        session: outcome.session,
        where: outcome.label === outcome.session ? 'project' : 'private-fallback',
        checkpoint: group.hasCheckpoint,
        files: group.names.map((name) => path(outcome, name)),
      })),
    );
    io.out(
      toJsonOutput({
        dryRun: o.dryRun,
        root: where.root,
        privateRoot: where.privateRoot ?? null,
        removed: entries,
        folders: folders.map((outcome) => outcome.dir),
        leftAlone,
      }),
    );
    return;
  }
  for (const outcome of outcomes) io.out(describeOutcome(outcome, o.dryRun));
  if (groups.length === 0 && folders.length === 0) {
    io.out(`${cliMessage('checkpoints.clean-nothing', { root })}\n`);
    return;
  }
  const summary = cliMessage('checkpoints.cleaned', {
    dryRun: o.dryRun,
    checkpoints: formatCount(groups.filter((group) => group.hasCheckpoint).length, 'checkpoint'),
    files: formatCount(
      groups.reduce((sum, group) => sum + group.names.length, 0),
      'file',
    ),
    folders: formatCount(folders.length, 'session folder'),
    root,
  });
  io.out(`${summary}\n`);
}

/** One line per checkpoint (with every file that goes with it), per unfinished write, and for the folder. */
function describeOutcome(outcome: Outcome, dryRun: boolean): string {
  const session = sanitizeText(outcome.label);
  const lines = outcome.groups.map((group) =>
    group.sequence === undefined
      ? cliMessage('checkpoints.clean-temp', { dryRun, path: `${session}/${sanitizeText(group.names[0]!)}` })
      : cliMessage('checkpoints.clean-group', { dryRun, id: `${session}/${checkpointId(group.sequence)}`, files: group.names.join(', ') }),
  );
  if (outcome.folderGone) lines.push(cliMessage('checkpoints.clean-folder', { dryRun, session }));
  return lines.map((line) => `${line}\n`).join('');
}
