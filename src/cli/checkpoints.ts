/** `context-ceiling checkpoints list|show|ack|clean`: the checkpoints PreCompact wrote for this project. */
import { join } from '../io/join-path.js';
import type { Checkpoint } from '../core/checkpoint.js';
import { sanitizeText } from '../core/sanitize.js';
import { formatPercent } from '../core/guard-text.js';
import { renderCompactionAlert } from '../core/alert-text.js';
import { describeFill } from '../core/text-budget.js';
import {
  acknowledgeCheckpoint,
  checkpointRoot,
  isAcknowledged,
  listCheckpoints,
  listCheckpointSessions,
  readCheckpointText,
  unsafeCheckpointDir,
  type CheckpointEntry,
} from '../checkpoints/store.js';
import { readCheckpointRoot } from '../checkpoints/clean.js';
import { readablePrivateRoot } from '../checkpoints/fallback.js';
import { ownFileTest, readWrittenRecords } from '../checkpoints/provenance.js';
import { resolveStateDir, sanitizeId } from '../io/state.js';
import { runClean } from './checkpoints-clean.js';
import { claudeSettingsOf, loadUncheckedConfig, projectDirOf } from './project.js';
import type { CliIO, Command } from './command.js';
import { CliError, UsageError } from './errors.js';
import { parseFlags } from './flags.js';
import { toJsonOutput } from './output.js';
import { cliMessage } from './messages.js';

const usage =
  'context-ceiling checkpoints list [--session ID] [--json] | show ID [--json] | ack ID|--all [--session ID] [--json] | clean --older-than AGE|--session ID|--all [--dry-run] [--json]';

export const checkpointsCommand: Command = {
  usage,
  help: `Usage: ${usage}

Checkpoints are written by the PreCompact hook to
<project>/.claude/context-ceiling/checkpoints/<session>/cx-NNN-checkpoint.json
(<project> is CLAUDE_PROJECT_DIR, else the current directory). A checkpoint is
shown to the model once, as a <compaction-alert> in the same session or a
<resumption-context> in the next one, and then acknowledged with a
cx-NNN-checkpoint.acknowledged marker beside it (seed 000's name for the
marker, cx-NNN-checkpoint.json.acknowledged, counts too). PostCompact keeps
Claude Code's summary beside it as cx-NNN-summary.json. The checkpoints folder
has a .gitignore of * (written when the hooks create the folder), so git
status shows none of it. When that folder cannot be used (read-only, a file or
link in the way), checkpoints go to a private fallback folder in the state
directory, <state>/checkpoints/<project key>/<session>/; they are listed too,
with IDs private/<session>/cx-NNN.

Only checkpoints your sessions wrote on this machine (recorded, with their
SHA-256, in the state directory) are ever shown to the model. Any other
checkpoint file in the project (one a repository commits, or one written
before those records existed) is listed as "found, not ours" and never resumed.

Subcommands:
  list            every checkpoint: id, time, trigger, fill, tier, acknowledged,
                  origin (ours or found, not ours; private fallback)
  show ID         one checkpoint and the alert the model is (or was) shown
  ack ID | --all  acknowledge one, or every pending one, so no alert shows it
  clean           remove checkpoints: --older-than AGE (by when each was
                  written), --session ID (that session's), or --all; each
                  goes with its markers and kept summary, an unfinished
                  write (.cx-*.tmp) once an hour old, a session folder once
                  empty; in the project's folder and the private
                  fallback. Nothing else is touched: no other file, no symlink
                  (a symlinked folder is refused), nothing another user owns

IDs are <session>/cx-NNN (private/<session>/cx-NNN in the private fallback);
cx-NNN alone works when it is unique (or with --session). When the project's
checkpoint folder is refused (a symlink or a file on the way), list says why on
stderr and exits 1, after listing the private fallback's checkpoints.

Options:
  --session ID    only this session's checkpoints
  --all           (ack) every unacknowledged checkpoint; (clean) every checkpoint
  --older-than AGE  (clean) written more than AGE ago: 30m, 12h, 7d, or before
                  an ISO time; with --session, that session's only
  --dry-run       (clean) list what would be removed, remove nothing
  --json          machine-readable output
`,
  run(args, io) {
    const flags = parseFlags(args, { string: ['session', 'older-than'], boolean: ['json', 'all', 'dry-run'] }, usage);
    const [sub, ...rest] = flags._.map(String);
    const projectDir = projectDirOf(io);
    const json = flags.json === true;
    const stateDir = () => resolveStateDir({ policy: loadUncheckedConfig(io).policy, env: claudeSettingsOf(io).env, home: io.home });
    if (sub !== 'clean' && (flags['older-than'] !== undefined || flags['dry-run'] === true))
      throw new UsageError(cliMessage('checkpoints.clean-only-flags'), usage);
    switch (sub) {
      case 'list':
        if (rest.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: rest[0] }), usage);
        return list(io, collect(projectDir, stateDir(), flags.session), json);
      case 'show':
        if (rest.length !== 1) throw new UsageError(cliMessage('checkpoints.show-needs-id'), usage);
        return show(io, findIn(collect(projectDir, stateDir(), flags.session), rest[0]!), json);
      case 'ack': {
        if (flags.all && rest.length > 0) throw new UsageError(cliMessage('checkpoints.id-or-all'), usage);
        if (!flags.all && rest.length !== 1) throw new UsageError(cliMessage('checkpoints.ack-needs-id'), usage);
        const collected = collect(projectDir, stateDir(), flags.session);
        const rows = rowsOf(collected);
        return ack(io, flags.all ? rows.filter((row) => !row.acknowledged) : [findIn(collected, rest[0]!)], json);
      }
      case 'clean': {
        if (rest.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: rest[0] }), usage);
        const options = {
          olderThan: flags['older-than'],
          session: flags.session,
          all: flags.all === true,
          dryRun: flags['dry-run'] === true,
        };
        return runClean(io, { projectDir, stateDir: stateDir() }, { ...options, json }, usage);
      }
      case undefined:
        throw new UsageError(cliMessage('needs-subcommand', { command: 'checkpoints', choices: 'list, show, ack or clean' }), usage);
      default:
        throw new UsageError(cliMessage('unknown-subcommand', { command: 'checkpoints', sub }), usage);
    }
  },
};

/** `where`: the project's checkpoint folder, or the private fallback; `ours`: recorded as written by this user's sessions here. */
type Row = {
  id: string;
  session: string;
  entry: CheckpointEntry;
  checkpoint: Checkpoint | undefined;
  acknowledged: boolean;
  where: 'project' | 'private-fallback';
  ours: boolean;
};

/** The private fallback's IDs: `private/<session>/cx-NNN`, apart from the project's `<session>/cx-NNN`. */
const PRIVATE_PREFIX = 'private/';

/**
 * The project's checkpoints and the private fallback's. `problem`: why the project's folder is refused (a
 * symlink or a file on the way); its checkpoints are then not listed, the private fallback's still are.
 */
type Collected = { rows: Row[]; problem: string | undefined };

function collect(projectDir: string, stateDir: string, session: string | undefined): Collected {
  const root = checkpointRoot(projectDir);
  const named = session === undefined ? listCheckpointSessions(projectDir) : [sanitizeId(session)];
  // The hooks skip such a folder silently; here the user asked, so say why it is not listed.
  const problem = [root, ...named.map((name) => join(root, name))].map(unsafeCheckpointDir).find((p) => p !== undefined);
  const sessions = problem ? [] : named;
  const ours = ownFileTest(readWrittenRecords(stateDir, projectDir), 'checkpoint');
  const rows = (dir: string, name: string, where: Row['where']): Row[] =>
    listCheckpoints(join(dir, name)).map((entry) => {
      const read = readCheckpointText(entry.path);
      const checkpoint = read?.checkpoint;
      return {
        id: `${where === 'private-fallback' ? PRIVATE_PREFIX : ''}${name}/cx-${String(entry.sequence).padStart(3, '0')}`,
        session: name,
        entry,
        checkpoint,
        acknowledged: isAcknowledged(entry, checkpoint),
        where,
        ours: read !== undefined && ours(entry.path, () => read.text),
      };
    });
  const privateRoot = readablePrivateRoot(stateDir, projectDir);
  const privateSessions = !privateRoot ? [] : session === undefined ? readCheckpointRoot(privateRoot).sessions : [sanitizeId(session)];
  return {
    rows: [
      ...sessions.flatMap((name) => rows(root, name, 'project')),
      ...(privateRoot ? privateSessions.flatMap((name) => rows(privateRoot, name, 'private-fallback')) : []),
    ],
    problem,
  };
}

/** The one checkpoint `id` names; when there is none and the project's folder was refused, that is the error. */
function findIn(collected: Collected, id: string): Row {
  try {
    return find(collected.rows, id);
  } catch (error) {
    throw collected.problem ? new CliError(collected.problem) : error;
  }
}

/** The rows, or the refused project folder's reason when there are none to act on. */
function rowsOf(collected: Collected): Row[] {
  if (collected.problem && collected.rows.length === 0) throw new CliError(collected.problem);
  return collected.rows;
}

/** Whose a checkpoint is and where it lies, for the listing. */
function origin(row: Row): string {
  const whose = row.ours ? 'ours' : 'found, not ours';
  return row.where === 'private-fallback' ? `${whose} (private fallback)` : whose;
}

function find(rows: Row[], id: string): Row {
  const matches = rows.filter((row) => row.id === id || row.id.endsWith(`/${id}`));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new CliError(cliMessage('checkpoints.no-such', { id, known: rows.map((row) => row.id).join(', ') }));
  throw new CliError(cliMessage('checkpoints.ambiguous', { id, matches: matches.map((row) => row.id).join(', ') }));
}

function summary(row: Row) {
  const c = row.checkpoint;
  return {
    id: row.id,
    session: row.session,
    sequence: row.entry.sequence,
    path: row.entry.path,
    corrupt: c === undefined,
    timestamp: c?.timestamp ?? null,
    trigger: c?.trigger.type ?? null,
    occupancy: c?.context.occupancy ?? null,
    percent: c?.context.percent ?? null,
    window: c?.context.window ?? null,
    tier: c?.context.tier ?? null,
    gitBranch: c?.session.gitBranch ?? null,
    acknowledged: row.acknowledged,
    where: row.where,
    ours: row.ours,
  };
}

/** Every row; when the project's folder was refused, its reason on stderr and exit 1 (the private fallback's rows still listed). */
function list(io: CliIO, collected: Collected, json: boolean): number {
  const rows = rowsOf(collected);
  if (collected.problem) io.err(`context-ceiling: ${collected.problem}\n`);
  const status = collected.problem ? 1 : 0;
  if (json) {
    io.out(toJsonOutput(rows.map(summary)));
    return status;
  }
  if (rows.length === 0) {
    io.out(`${cliMessage('checkpoints.none')}\n`);
    return status;
  }
  const table = [['ID', 'TIME', 'TRIGGER', 'FILL', 'TIER', 'ACKNOWLEDGED', 'ORIGIN']];
  for (const row of rows) {
    const c = row.checkpoint;
    table.push(
      c
        ? [
            row.id,
            c.timestamp,
            c.trigger.type,
            c.context.percent === null ? '?' : formatPercent(c.context.percent),
            c.context.tier,
            row.acknowledged ? 'yes' : 'no',
            origin(row),
          ]
        : [row.id, '(corrupt)', '', '', '', row.acknowledged ? 'yes' : 'no', origin(row)],
    );
  }
  // FILL (column 3) is a number we formatted: the sanitiser would turn the `<` of `<1%` into `‹`.
  for (const line of table) for (const [col, cell] of line.entries()) if (col !== 3) line[col] = sanitizeText(cell);
  // A reduce, not Math.max(...): spreading one argument per row overflows the stack at some 100k checkpoints.
  const widths = table[0]!.map((_, col) => table.reduce((widest, line) => Math.max(widest, line[col]!.length), 0));
  for (const line of table)
    io.out(`${line.map((cell, col) => (col === line.length - 1 ? cell : cell.padEnd(widths[col]! + 2))).join('')}\n`);
  return status;
}

function show(io: CliIO, row: Row, json: boolean): number {
  if (json) {
    io.out(
      toJsonOutput(
        row.checkpoint
          ? { ...row.checkpoint, acknowledged: row.acknowledged, where: row.where, ours: row.ours, file: row.entry.path }
          : { ...summary(row) },
      ),
    );
    return 0;
  }
  const c = row.checkpoint;
  /** A third element `true`: built from values already sanitised, shown as is. */
  const fields: Array<[string, string] | [string, string, true]> = [
    ['Checkpoint', row.id],
    ['File', row.entry.path],
    ['Acknowledged', row.acknowledged ? 'yes' : 'no'],
    [
      'Origin',
      cliMessage(row.ours ? 'checkpoints.origin-ours' : 'checkpoints.origin-found', { privateFallback: row.where === 'private-fallback' }),
    ],
  ];
  if (c) {
    fields.push(
      ['Time', c.timestamp],
      ['Trigger', cliMessage('checkpoints.trigger', { type: c.trigger.type, instructions: c.trigger.customInstructions })],
      // The file's own words in it (the window's source and detail; the tier is parsed to ours) are sanitised
      // first, so the `<` of our `<1%` stays.
      [
        'Fill',
        describeFill({
          ...c,
          context: {
            ...c.context,
            windowSource: sanitizeText(c.context.windowSource) as typeof c.context.windowSource,
            windowDetail: c.context.windowDetail === undefined ? undefined : sanitizeText(c.context.windowDetail),
          },
        }),
        true,
      ],
      ['Tier', c.context.tier],
      ['Git branch', c.session.gitBranch ?? '(none)'],
      [
        'Resumption',
        cliMessage('checkpoints.resumption', { path: c.orchestration.path, status: c.orchestration.status, error: c.orchestration.error }),
      ],
    );
  } else {
    fields.push(['Contents', cliMessage('checkpoints.corrupt')]);
  }
  // Every value is the checkpoint file's content, which a repository can commit: no raw escapes reach the terminal.
  const lines = fields.map(([label, value, ours]) => `${label.padEnd(13)}${ours ? value : sanitizeText(value)}`);
  if (!row.ours) {
    io.out(`${lines.join('\n')}\n\n${cliMessage('checkpoints.not-ours-never-shown')}\n`);
    return 0;
  }
  const entries = listCheckpoints(join(row.entry.path, '..'));
  const alert = renderCompactionAlert({
    checkpoint: c,
    checkpointPath: row.entry.path,
    orchestrationPath: c?.orchestration.path || 'ORCHESTRATION.yaml',
    eventNumber: entries.findIndex((e) => e.sequence === row.entry.sequence) + 1,
    eventCount: entries.length,
  });
  io.out(`${lines.join('\n')}\n\n${cliMessage('checkpoints.alert-heading')}\n${alert}\n`);
  return 0;
}

function ack(io: CliIO, rows: Row[], json: boolean): number {
  const results = rows.map((row) => {
    const claim = row.acknowledged ? 'taken' : acknowledgeCheckpoint(row.entry);
    if (claim === 'failed') throw new CliError(cliMessage('checkpoints.ack-failed', { path: row.entry.path }));
    return { id: row.id, acknowledged: true, changed: claim === 'claimed' };
  });
  if (json) io.out(toJsonOutput(results));
  else if (results.length === 0) io.out(`${cliMessage('checkpoints.nothing-to-ack')}\n`);
  else for (const r of results) io.out(`${cliMessage('checkpoints.acked', { id: r.id, changed: r.changed })}\n`);
  return 0;
}
