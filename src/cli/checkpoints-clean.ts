/**
 * `checkpoints clean --older-than AGE | --session ID | --all [--dry-run] [--json]`: a checkpoint goes with its
 * markers and kept summary, an unfinished write once stale, a session folder once empty; nothing else.
 */
import { join } from 'node:path';
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
import { checkpointRoot, unsafeCheckpointDir } from '../checkpoints/store.js';
import { sanitizeId } from '../io/state.js';
import { parseSince } from './events.js';
import type { CliIO } from './command.js';
import { CliError, describeFsError, UsageError } from './errors.js';
import { toJsonOutput } from './output.js';
import { cliMessage } from './messages.js';

export type CleanOptions = { olderThan: string | undefined; session: string | undefined; all: boolean; dryRun: boolean; json: boolean };

type Outcome = { session: string; dir: string; groups: CleanGroup[]; folderGone: boolean; leftAlone: LeftAlone[] };
type LeftAlone = { path: string; why: string };

export function runClean(io: CliIO, projectDir: string, o: CleanOptions, usage: string): number {
  if (!o.all && o.olderThan === undefined && o.session === undefined)
    throw new UsageError(cliMessage('checkpoints.clean-needs-selection'), usage);
  if (o.all && (o.olderThan !== undefined || o.session !== undefined))
    throw new UsageError(cliMessage('checkpoints.clean-all-alone'), usage);
  const now = Date.now();
  const cutoff = o.olderThan === undefined ? undefined : parseSince(o.olderThan, new Date(now));
  if (cutoff === null) throw new UsageError(cliMessage('checkpoints.older-than-invalid', { got: o.olderThan! }), usage);
  const root = checkpointRoot(projectDir);
  const problem = unsafeCheckpointDir(root);
  if (problem) throw new CliError(problem);
  const { sessions, links } = readCheckpointRoot(root);
  const chosen = o.session === undefined ? sessions : [chooseSession(sessions, links, root, o.session)];
  const leftAlone =
    o.session === undefined ? links.map((name) => ({ path: join(root, name), why: cliMessage('checkpoints.why-link') })) : [];
  const outcomes = chosen.map((session) => cleanSession(join(root, session), session, { cutoff, now, dryRun: o.dryRun }));
  report(io, root, outcomes, [...leftAlone, ...outcomes.flatMap((outcome) => outcome.leftAlone)], o);
  return 0;
}

function chooseSession(sessions: string[], links: string[], root: string, raw: string): string {
  const session = sanitizeId(raw);
  const problem = unsafeCheckpointDir(join(root, session));
  if (problem) throw new CliError(problem);
  if (!sessions.includes(session) && !links.includes(session))
    throw new CliError(cliMessage('checkpoints.no-session', { session: sanitizeText(raw), known: sanitizeText(sessions.join(', ')) }));
  return session;
}

function cleanSession(dir: string, session: string, c: { cutoff: number | undefined; now: number; dryRun: boolean }): Outcome {
  try {
    return cleanSessionFolder(dir, session, c);
  } catch (error) {
    throw new CliError(cliMessage('checkpoints.cannot-clean', { path: dir, reason: describeFsError(error) }));
  }
}

function cleanSessionFolder(dir: string, session: string, c: { cutoff: number | undefined; now: number; dryRun: boolean }): Outcome {
  const { files, entries } = readSessionFolder(dir);
  const plan: SessionCleanPlan = planSessionClean(files, { ...c, writtenAt: (sequence) => checkpointWrittenAt(dir, sequence) });
  const leftAlone = plan.leftAlone.map(({ name, why }) => ({
    path: join(dir, name),
    why: cliMessage(why === 'not-mine' ? 'checkpoints.why-not-mine' : 'checkpoints.why-not-a-file'),
  }));
  const planned = plan.remove.reduce((sum, group) => sum + group.names.length, 0);
  if (c.dryRun) return { session, dir, groups: plan.remove, folderGone: planned === entries, leftAlone };
  for (const group of plan.remove) removeFromSession(dir, group.names);
  return { session, dir, groups: plan.remove, folderGone: removeSessionFolderIfEmpty(dir), leftAlone };
}

function report(io: CliIO, root: string, outcomes: Outcome[], leftAlone: LeftAlone[], o: CleanOptions): void {
  for (const item of leftAlone)
    io.err(`${cliMessage('warning', { warning: cliMessage('checkpoints.left-alone', { ...item, path: sanitizeText(item.path) }) })}\n`);
  const groups = outcomes.flatMap((outcome) => outcome.groups);
  const folders = outcomes.filter((outcome) => outcome.folderGone);
  if (o.json) {
    const path = (outcome: Outcome, name: string) => join(outcome.dir, name);
    const entries = outcomes.flatMap((outcome) =>
      outcome.groups.map((group) => ({
        id: group.sequence === undefined ? null : `${outcome.session}/${checkpointId(group.sequence)}`,
        session: outcome.session,
        checkpoint: group.hasCheckpoint,
        files: group.names.map((name) => path(outcome, name)),
      })),
    );
    io.out(toJsonOutput({ dryRun: o.dryRun, root, removed: entries, folders: folders.map((outcome) => outcome.dir), leftAlone }));
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
  const session = sanitizeText(outcome.session);
  const lines = outcome.groups.map((group) =>
    group.sequence === undefined
      ? cliMessage('checkpoints.clean-temp', { dryRun, path: `${session}/${sanitizeText(group.names[0]!)}` })
      : cliMessage('checkpoints.clean-group', { dryRun, id: `${session}/${checkpointId(group.sequence)}`, files: group.names.join(', ') }),
  );
  if (outcome.folderGone) lines.push(cliMessage('checkpoints.clean-folder', { dryRun, session }));
  return lines.map((line) => `${line}\n`).join('');
}
