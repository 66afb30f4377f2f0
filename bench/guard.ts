/**
 * Hook cost benchmark: every path a user's session runs (the guard allowing, warning, deduplicating a
 * warning, blocking, and allowing on unknown occupancy; the monitor, also in a long-lived project; PreCompact; PostCompact;
 * SessionStart, also in a project with 64 checkpoints; PostToolUse; the status line), each as one whole `node plugin/dist/hook.cjs <event>` process, paired run
 * by run against `node -e 0`, on a 1 KB and a 1 GB transcript, under Node and, when it is there, under
 * Bun. Every row first checks the verdict its path produced (the debug channel's `verdict <event>:
 * <reason>` line) and every timed run's output: a fast wrong answer is not a result. Writes the dated
 * table into bench/RESULTS.md and exits 1 when any row's verdict was wrong.
 *
 * Where valgrind is installed, each Node row also counts the main thread's instructions (callgrind) against
 * `node -e 0`'s: a figure other load on the machine does not change, beside the wall-clock ratio that it does.
 * Besides the machine's Node, the current LTS Node (NODE_LTS_VERSION, fetched from the npm registry's
 * node-<platform>-<arch> package into bench/.data/tools) runs every path too, against its own `node -e 0`:
 * the Node a user installs today, which starts and loads code differently from an older one. The older Node lines
 * still maintained (NODE_MAINTAINED_VERSIONS, fetched so too), which many users have, run every path by instructions
 * only (a second table): what their hooks cost beside the Node they run them with.
 *
 *   npm run bench      (BENCH_RUNS=20 BENCH_SIZES=1KB,1GB BENCH_PATHS=allow,block BENCH_BUN=/path/to/bun|off
 *                       BENCH_NODE_LTS=/path/to/node|off BENCH_NODE_LINES=22.23.5,24.22.3|off BENCH_INSTRUCTIONS=off)
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus } from 'node:os';
import { basename, join } from 'node:path';
import { digestOf, recordsKey, recordWritten } from '../src/checkpoints/provenance.js';
import { NODE_HOOK } from '../src/core/hook-table.js';
import { fetchNode, findLtsNode, NODE_LTS_VERSION, NODE_MAINTAINED_VERSIONS } from './lts-node.js';
import { DATA, findBun, median, peakKiB, ROOT, type Run, runOnce } from './processes.js';
import { writeSection } from './results.js';
import { CALL_ID, ensureCompacted, ensureTurns, MiB, turn, writeSparse } from './transcripts.js';

const HOOK = join(ROOT, 'plugin', 'dist', 'hook.cjs');
const STATUSLINE = join(ROOT, 'plugin', 'dist', 'statusline.cjs');
/** What a path's process runs after the runtime's flags: the hook launcher and its event, or the status line. */
const scriptArgs = (path: { event: string; statusLine?: true }) => (path.statusLine ? [STATUSLINE] : [HOOK, path.event]);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
/** The default state directory under the bench's HOME. */
const STATE = join(DATA, 'home', '.local', 'state', 'context-ceiling');
const PEAK_RUNS = 3;
const SIZES: Record<string, number> = { '1KB': 1024, '10MB': 10 * MiB, '100MB': 100 * MiB, '1GB': 1024 * MiB };
const chosenSizes = (process.env.BENCH_SIZES ?? '1KB,1GB').split(',');
/** The issue's targets: every path within 1.15 × `node -e 0`, and within bare Node + 30 MB. */
const TARGET_RATIO = 1.15;
const TARGET_MB = 30;

// ---------------------------------------------------------------- the paths

type Transcripts = { turns: string; compacted: string };

type PathCase = {
  /** The row's name: which path it times. */
  path: string;
  event: string;
  /**
   * The status line (`statusline.cjs`, no event argument) instead of the hook launcher: it states no verdict on
   * the debug channel, so the line it prints (`stdout`) is what is checked.
   */
  statusLine?: true;
  /** Extra environment for this path (on top of a fixed, explicit one). */
  env?: Record<string, string>;
  /** The user's policy file (~/.claude/context-ceiling.json) this path runs with, in a home of its own. */
  userPolicy?: string;
  /**
   * The hook input of one run (a path that must start fresh, e.g. a first warning, gets a new session each run);
   * `untimed` runs a hook before it, outside the timing (e.g. the compaction a resumed session follows).
   */
  input: (t: Transcripts, project: string, untimed: (event: string, input: string) => void) => string;
  /** Done once per runtime before the path is checked and timed (e.g. the checkpoint PostCompact keeps a summary beside). */
  prepare?: (run: (event: string, input: string) => void, t: Transcripts, project: string) => void;
  /** The reason the debug channel must state (`verdict <event>: <reason>`). */
  reason: string;
  /** What every run's stdout must match (`^$`: nothing). */
  stdout: RegExp;
};

/**
 * 64 earlier sessions' checkpoints in `project`, taken by a later start, then settled past the two seconds a start
 * does not trust a folder changed within, and looked at by one more start, which keeps its note: as in a project
 * whose last compaction was not a moment ago. Once, for every runtime.
 */
function longLivedProject(run: (event: string, input: string) => void, t: Transcripts, project: string): void {
  if (existsSync(join(project, '.claude', 'context-ceiling', 'checkpoints'))) return;
  const start = (session: string) => sessionInput('SessionStart', t.turns, session, project, { source: 'startup' });
  for (let i = 0; i < 64; i++)
    run(
      'pre-compact',
      sessionInput('PreCompact', t.turns, `${rowSession(project)}-${i}`, project, { trigger: 'auto', custom_instructions: null }),
    );
  run('session-start', start(`${rowSession(project)}-taker`));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_100);
  run('session-start', start(`${rowSession(project)}-looker`));
  if (!existsSync(startNoteOf(project))) throw new Error(`no start note was kept for ${project}`);
}

/** The most of a transcript's end a growing copy keeps: what any hook reads of it (a 4 MiB line and its turn). */
const GROWING_TAIL = 8 * MiB;

/**
 * The row's own copy of the transcript, one turn longer at each call (the first call makes the copy): a large one
 * sparse up to its last GROWING_TAIL bytes, cut at a line's start, as the compacted one is.
 */
function grownByATurn(t: Transcripts, project: string): string {
  const path = join(project, 'transcript.jsonl');
  if (!existsSync(path)) {
    const size = statSync(t.turns).size;
    const keep = Math.min(size, GROWING_TAIL);
    const fd = openSync(t.turns, 'r');
    const tail = Buffer.alloc(keep);
    readSync(fd, tail, 0, keep, size - keep);
    closeSync(fd);
    writeSparse(path, size, keep === size ? tail : tail.subarray(tail.indexOf(10) + 1));
  }
  appendFileSync(path, turn(grown++, false));
  return path;
}
let grown = 0;

/** Where a start keeps its note of `project` in the bench HOME's private state (start-note.ts). */
const startNoteOf = (project: string) => join(STATE, 'checkpoints', `${recordsKey(project).key}.start`);

const guardInput = (transcript: string, session: string, cwd: string) =>
  JSON.stringify({
    session_id: session,
    transcript_path: transcript,
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Skill',
    tool_input: { skill: 'deep-dive' },
    tool_use_id: CALL_ID,
  });

const sessionInput = (event: string, transcript: string, session: string, cwd: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: session, transcript_path: transcript, cwd, hook_event_name: event, ...extra });

/** The session of a row that keeps one (its project is the row's own): no row meets another row's, or size's, state. */
const rowSession = (project: string) => `bench-${basename(project)}`;

let serial = 0;
/** A session id no earlier run used, so paths that must start fresh never see an earlier run's state. */
const fresh = (path: string) => `bench-${path}-${process.pid}-${serial++}`;

const OVER = { DEV_TEAM_CONTEXT_CEILING_PCT: '25' };

/**
 * Earlier sessions' checkpoint records for `project`, as PreCompact writes them (recordWritten, into the bench HOME's
 * default state directory), until its records file holds `bytes`.
 */
function fillRecords(project: string, bytes: number): void {
  const file = join(STATE, 'checkpoints', `${recordsKey(project).key}.jsonl`);
  for (let i = 0; (statSync(file, { throwIfNoEntry: false })?.size ?? 0) < bytes; i++) {
    const session = `${rowSession(project)}-earlier-${i}`;
    const path = join(project, '.claude', 'context-ceiling', 'checkpoints', session, 'cx-001-checkpoint.json');
    const fact = { trigger: 'auto', timestamp: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString() };
    recordWritten(STATE, project, { kind: 'checkpoint', path, session, sequence: 1, digest: digestOf(path), fact });
  }
}

const PATHS: PathCase[] = [
  {
    path: 'allow',
    event: 'pre-tool-use',
    input: (t, project) => guardInput(t.turns, rowSession(project), project),
    reason: 'allow below-ceiling',
    stdout: /^$/,
  },
  {
    // As `context-ceiling config set ceilingPct 35` leaves it: the way a team configures the guard.
    path: 'allow with a policy file',
    event: 'pre-tool-use',
    userPolicy: '{\n  "ceilingPct": 35\n}\n',
    input: (t, project) => guardInput(t.turns, rowSession(project), project),
    reason: 'allow below-ceiling',
    stdout: /^$/,
  },
  {
    path: 'warn',
    event: 'pre-tool-use',
    env: OVER,
    input: (t, project) => guardInput(t.turns, fresh('warn'), project),
    reason: 'warn over-ceiling',
    stdout: /"additionalContext":"[^"]*30%/,
  },
  {
    path: 'deduped warn',
    event: 'pre-tool-use',
    env: OVER,
    input: (t, project) => guardInput(t.turns, rowSession(project), project),
    prepare: (run, t, project) => run('pre-tool-use', guardInput(t.turns, rowSession(project), project)),
    reason: 'deduplicated over-ceiling',
    stdout: /^$/,
  },
  {
    path: 'block',
    event: 'pre-tool-use',
    env: { ...OVER, DEV_TEAM_CONTEXT_STRICT: 'on' },
    input: (t, project) => guardInput(t.turns, rowSession(project), project),
    reason: 'block over-ceiling-blocked',
    stdout: /"permissionDecision":"deny","permissionDecisionReason":"[^"]*30%/,
  },
  {
    path: 'unknown occupancy',
    event: 'pre-tool-use',
    env: OVER,
    input: (t, project) => guardInput(t.compacted, rowSession(project), project),
    reason: 'allow unknown-since-compaction',
    stdout: /^$/,
  },
  {
    path: 'monitor',
    event: 'user-prompt-submit',
    input: (t, project) => sessionInput('UserPromptSubmit', t.turns, rowSession(project), project, { prompt: 'next step' }),
    reason: 'monitor nominal',
    stdout: /<context-monitor>/,
  },
  {
    // Every prompt of a session that compacted: the monitor reads the session's checkpoint records and files (the alert
    // was shown after the compaction, so each prompt finds nothing pending).
    path: 'monitor after a compaction',
    event: 'user-prompt-submit',
    input: (t, project) => sessionInput('UserPromptSubmit', t.turns, rowSession(project), project, { prompt: 'next step' }),
    prepare: (run, t, project) => {
      if (existsSync(join(project, '.claude', 'context-ceiling', 'checkpoints'))) return; // once, for every runtime
      run('pre-compact', sessionInput('PreCompact', t.turns, rowSession(project), project, { trigger: 'auto', custom_instructions: null }));
      run('session-start', sessionInput('SessionStart', t.turns, rowSession(project), project, { source: 'compact' }));
    },
    reason: 'monitor nominal',
    stdout: /<context-monitor>/,
  },
  {
    // A long-lived project whose checkpoint records file is at its cap (~500 KB: some 1,600 earlier sessions' records;
    // recordWritten halves it past 512 KB), in a session that compacted once, as the row above: each prompt finds this
    // session's records among them.
    path: 'monitor with 500 KB of checkpoint records',
    event: 'user-prompt-submit',
    input: (t, project) => sessionInput('UserPromptSubmit', t.turns, rowSession(project), project, { prompt: 'next step' }),
    prepare: (run, t, project) => {
      if (existsSync(join(project, '.claude', 'context-ceiling', 'checkpoints'))) return; // once, for every runtime
      fillRecords(project, 500 * 1024);
      run('pre-compact', sessionInput('PreCompact', t.turns, rowSession(project), project, { trigger: 'auto', custom_instructions: null }));
      run('session-start', sessionInput('SessionStart', t.turns, rowSession(project), project, { source: 'compact' }));
    },
    reason: 'monitor nominal',
    stdout: /<context-monitor>/,
  },
  {
    // Every real prompt: the transcript grew by a turn since the last one (the rows above reread an unchanging file),
    // so the monitor searches the bytes appended since its mark for a compaction, and may rewrite the mark.
    path: 'monitor as the transcript grows',
    event: 'user-prompt-submit',
    input: (t, project) =>
      sessionInput('UserPromptSubmit', grownByATurn(t, project), rowSession(project), project, { prompt: 'next step' }),
    reason: 'monitor nominal',
    stdout: /<context-monitor>/,
  },
  {
    path: 'PreCompact',
    event: 'pre-compact',
    input: (t, project) =>
      sessionInput('PreCompact', t.turns, fresh('precompact'), project, { trigger: 'auto', custom_instructions: null }),
    reason: 'checkpoint cx-001',
    stdout: /cx-001/,
  },
  {
    path: 'PostCompact',
    event: 'post-compact',
    input: (t, project) =>
      sessionInput('PostCompact', t.turns, rowSession(project), project, {
        trigger: 'auto',
        compact_summary: 'Summary: the work continues with the next step.',
      }),
    prepare: (run, t, project) =>
      run('pre-compact', sessionInput('PreCompact', t.turns, rowSession(project), project, { trigger: 'auto', custom_instructions: null })),
    reason: 'summary-kept',
    stdout: /^$/,
  },
  {
    path: 'SessionStart',
    event: 'session-start',
    input: (t, project) => sessionInput('SessionStart', t.turns, rowSession(project), project, { source: 'startup' }),
    reason: 'no-checkpoint-to-resume',
    stdout: /^$/,
  },
  {
    // A long-lived project: 64 checkpoints of earlier sessions (SessionStart checks at most 64 of ours by their bytes),
    // all taken already, so each start finds nothing to resume and counts no file that is not ours. As most starts
    // there: nothing changed since the last start looked, so it takes that start's note (checkpoints/start-note.ts).
    path: 'SessionStart with 64 checkpoints',
    event: 'session-start',
    input: (t, project) => sessionInput('SessionStart', t.turns, rowSession(project), project, { source: 'startup' }),
    prepare: longLivedProject,
    reason: 'no-checkpoint-to-resume unchanged-since-last-start',
    stdout: /^$/,
  },
  {
    // The same project's first start after something changed (a compaction, an acknowledgement): it looks through every
    // record and folder, and keeps a note of what it found. Its note is taken away before each run (untimed).
    path: 'SessionStart with 64 checkpoints after a change',
    event: 'session-start',
    input: (t, project) => {
      rmSync(startNoteOf(project), { force: true });
      return sessionInput('SessionStart', t.turns, rowSession(project), project, { source: 'startup' });
    },
    prepare: longLivedProject,
    reason: 'no-checkpoint-to-resume',
    stdout: /^$/,
  },
  {
    // After every compaction: the new context opens with the alert the PreCompact of the same session left.
    path: 'SessionStart after compaction',
    event: 'session-start',
    input: (t, project, untimed) => {
      const session = fresh('resumed');
      untimed('pre-compact', sessionInput('PreCompact', t.turns, session, project, { trigger: 'auto', custom_instructions: null }));
      return sessionInput('SessionStart', t.turns, session, project, { source: 'compact' });
    },
    reason: 'compaction-alert',
    stdout: /cx-001/,
  },
  {
    path: 'PostToolUse',
    event: 'post-tool-use',
    input: (t, project) =>
      sessionInput('PostToolUse', t.turns, rowSession(project), project, {
        tool_name: 'Write',
        tool_input: { file_path: join(project, 'src', 'index.ts'), content: 'x' },
        tool_response: { success: true },
      }),
    reason: 'not-the-orchestration-file',
    stdout: /^$/,
  },
  {
    // After every turn in an interactive session (install --statusline): Claude Code gives the turn's usage.
    path: 'status line',
    event: 'statusline',
    statusLine: true,
    input: (t, project) => statusInput(t.turns, project, true),
    reason: 'the line',
    stdout: /^ctx 30% .* 300,00[05]\/1,000,000 /,
  },
  {
    // The same, for a team that configured the guard (`config set ceilingPct 35`): the policy file's kept validation.
    path: 'status line with a policy file',
    event: 'statusline',
    statusLine: true,
    userPolicy: '{\n  "ceilingPct": 35\n}\n',
    input: (t, project) => statusInput(t.turns, project, true),
    reason: 'the line',
    stdout: /^ctx 30% .* 300,00[05]\/1,000,000 .* to the 35% ceiling/,
  },
  {
    // Before a resumed session's first turn (or after /compact): no usage in the input, so the transcript is read.
    path: 'status line reading the transcript',
    event: 'statusline',
    statusLine: true,
    input: (t, project) => statusInput(t.turns, project, false),
    reason: 'the line',
    stdout: /^ctx 30% .* 300,00[05]\/1,000,000 /,
  },
];

/** What Claude Code gives a status line command (test/fixtures/claude-code-2.1.328/statusline-*.json), 30 % full. */
function statusInput(transcript: string, cwd: string, withUsage: boolean): string {
  const usage = { input_tokens: 5, output_tokens: 5, cache_creation_input_tokens: 1_000, cache_read_input_tokens: 299_000 };
  return JSON.stringify({
    session_id: rowSession(cwd),
    transcript_path: transcript,
    cwd,
    model: { id: 'claude-opus-5-5', display_name: 'Opus 5.5' },
    workspace: { current_dir: cwd, project_dir: cwd },
    version: '2.1.332',
    context_window: { context_window_size: 1_000_000, current_usage: withUsage ? usage : null },
  });
}

// BENCH_PATHS names rows by their names, comma-separated: a name holding a comma could never be chosen.
for (const { path } of PATHS) if (path.includes(',')) throw new Error(`bench: the row name "${path}" holds a comma`);
const chosenPaths = process.env.BENCH_PATHS?.split(',');
const unknown = chosenPaths?.filter((name) => !PATHS.some((p) => p.path === name)) ?? [];
if (unknown.length > 0) throw new Error(`bench: BENCH_PATHS names no row ${unknown.map((name) => `"${name}"`).join(', ')}`);
const paths = chosenPaths ? PATHS.filter((p) => chosenPaths.includes(p.path)) : PATHS;

// ---------------------------------------------------------------- running

/**
 * `flags`: what the hook command gives that runtime before the script (hooks.json's, from core/hook-table.ts);
 * `bare`: the Node whose `node -e 0` is its yardstick (each Node its own; Bun the machine's Node).
 */
type Runtime = { name: 'node' | 'node-lts' | 'bun'; label: string; command: string; flags: string[]; bare: string };

/** An older Node line still maintained, run on every path by instructions only (its check run's verdict checked too). */
type NodeLine = { label: string; version: string; command: string };

/** Node's flags in the hook command every route writes where Bun is absent (NODE_HOOK: `node <flags>`). */
const NODE_FLAGS = NODE_HOOK.split(' ').slice(1);

/**
 * Instructions of the process's main thread under callgrind, net of V8's hash-seed prime search, the least of
 * INSTRUCTION_RUNS runs. That search (`detail::sprp`, under `HashSeed::InitializeRoots`) runs once per process
 * with a random seed and costs anywhere from 0 to ~10 M instructions, in bare Node as in a hook: left in, it
 * outweighs most of what a change to a hook moves. What remains repeats within ~0.3 M run to run.
 */
function instructions(command: string, args: string[], input: () => string | undefined, env: NodeJS.ProcessEnv): number | undefined {
  const counts: number[] = [];
  for (let i = 0; i < INSTRUCTION_RUNS; i++) {
    const out = join(DATA, `callgrind-${process.pid}.out`);
    spawnSync('valgrind', ['--tool=callgrind', '--separate-threads=yes', `--callgrind-out-file=${out}`, command, ...args], {
      input: input(),
      env,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const main = `${out}-01`;
    const total = existsSync(main) ? /^(?:totals|summary): (\d+)/m.exec(readFileSync(main, 'utf8')) : null;
    if (total) counts.push(Number(total[1]) - hashSeedSearch(main));
    for (const file of readdirSync(DATA)) if (file.startsWith(`callgrind-${process.pid}.out`)) rmSync(join(DATA, file), { force: true });
  }
  return counts.length > 0 ? Math.min(...counts) : undefined;
}

/** The self cost of V8's hash-seed prime search in one callgrind output (0 when callgrind_annotate is missing). */
function hashSeedSearch(file: string): number {
  const annotated = spawnSync('callgrind_annotate', ['--threshold=100', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  // Node 20's V8 names the search itself; a newer V8 inlines it into HashSeed::InitializeRoots.
  const lines = annotated.stdout?.split('\n').filter((text) => /detail::sprp|HashSeed::InitializeRoots/.test(text)) ?? [];
  return lines.reduce((sum, line) => sum + Number(/^\s*([\d,]+)/.exec(line)?.[1]?.replaceAll(',', '') ?? 0), 0);
}

const INSTRUCTION_RUNS = 3;
const countInstructions =
  process.env.BENCH_INSTRUCTIONS !== 'off' && spawnSync('valgrind', ['--version'], { encoding: 'utf8' }).status === 0;

/** The reason the debug channel stated for one run of the hook (its `verdict <event>: <reason>` line). */
function statedReason(
  runtime: Pick<Runtime, 'command' | 'flags'>,
  path: PathCase,
  input: string,
  env: NodeJS.ProcessEnv,
): { reason: string; run: Run } {
  const { event } = path;
  const log = join(DATA, `debug-${process.pid}.log`);
  rmSync(log, { force: true });
  const run = runOnce(runtime.command, [...runtime.flags, ...scriptArgs(path)], input, { ...env, DEV_TEAM_CONTEXT_DEBUG: log });
  // The status line states no verdict: the line it printed is its answer (checked against the path's stdout).
  if (path.statusLine) return { reason: path.stdout.test(run.stdout) ? path.reason : '(not the line)', run };
  const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
  rmSync(log, { force: true });
  const lines = [...text.matchAll(/verdict ([a-z-]+): (.*)$/gm)];
  const last = lines[lines.length - 1];
  return { reason: last && last[1] === event ? last[2]!.trim() : '(no verdict line)', run };
}

/** One runtime's figures on one path; `overMB`: its peak over its yardstick's (`node -e 0`). */
/**
 * The state every row starts from: a user who has compacted once, in another project. From then on the private
 * checkpoints folder exists, and every path that reads a project's checkpoint records (the monitor, SessionStart,
 * PreCompact, PostCompact) looks for them; before it, they stop at the missing folder. Without this the rows of the
 * first size ran before any PreCompact row and those of the next after, so the sizes differed by state, not size.
 */
function firstCompaction(env: NodeJS.ProcessEnv): void {
  const project = join(DATA, 'projects', 'first-compaction');
  mkdirSync(project, { recursive: true });
  const input = sessionInput('PreCompact', ensureTurns(DATA, '1KB', SIZES['1KB']!), rowSession(project), project, {
    trigger: 'auto',
    custom_instructions: null,
  });
  const run = runOnce(process.execPath, [...NODE_FLAGS, HOOK, 'pre-compact'], input, { ...env, CLAUDE_PROJECT_DIR: project });
  if (run.status !== 0 || !run.stdout.includes('cx-001') || !existsSync(join(STATE, 'checkpoints')))
    throw new Error(`bench: the first compaction did not leave a checkpoint (exit ${run.status}): ${run.stdout.slice(0, 200)}`);
}

type Cell = { ms: number; ratio: number; overMB: number; instructionRatio: number | undefined; wrong?: string | undefined };

type Row = {
  size: string;
  bytes: number;
  path: PathCase;
  /** The machine's `node -e 0`, median ms. */
  bareMs: number;
  cells: Partial<Record<Runtime['name'], Cell>>;
  /** Each older Node line's instructions over its `node -e 0`'s (undefined: not counted), or its wrong verdict. */
  lines: Record<string, { instructionRatio: number | undefined; wrong?: string | undefined }>;
};

/** Each older Node line's `node -e 0` instructions, counted once a bench run (the least of twice INSTRUCTION_RUNS runs). */
const lineBare = new Map<string, number | undefined>();

function benchPath(size: string, t: Transcripts, path: PathCase, runtimes: Runtime[], lines: NodeLine[], baseEnv: NodeJS.ProcessEnv): Row {
  const slug = `${size}-${path.path.replace(/\W+/g, '-')}`;
  const project = join(DATA, 'projects', slug);
  mkdirSync(join(project, 'src'), { recursive: true });
  const env: NodeJS.ProcessEnv = { ...baseEnv, CLAUDE_PROJECT_DIR: project, ...path.env };
  if (path.userPolicy !== undefined) {
    // Its own home: a policy file there would change every other path. The private state directory as a user's.
    env.HOME = join(DATA, 'homes', slug);
    mkdirSync(join(env.HOME, '.local', 'state', 'context-ceiling'), { recursive: true, mode: 0o700 });
    mkdirSync(join(env.HOME, '.claude'), { recursive: true });
    writeFileSync(join(env.HOME, '.claude', 'context-ceiling.json'), path.userPolicy);
  }
  const args = (runtime: Runtime) => [...runtime.flags, ...scriptArgs(path)];
  const untimed = (event: string, input: string) => void runOnce(process.execPath, [...NODE_FLAGS, HOOK, event], input, env);
  const wrong: Partial<Record<Runtime['name'], string>> = {};
  // The check run is not timed: it has the debug channel on, and names the verdict this path must produce.
  const checkRun = (runtime: Pick<Runtime, 'command' | 'flags'>): string | undefined => {
    path.prepare?.((event, input) => void runOnce(runtime.command, [...runtime.flags, HOOK, event], input, env), t, project);
    const { reason, run } = statedReason(runtime, path, path.input(t, project, untimed), env);
    if (reason !== path.reason || run.status !== 0 || !path.stdout.test(run.stdout))
      return `stated "${reason}", exit ${run.status}, stdout ${JSON.stringify(run.stdout.slice(0, 120))}`;
    return undefined;
  };
  for (const runtime of runtimes) {
    const failed = checkRun(runtime);
    if (failed) wrong[runtime.name] = failed;
  }
  const yardsticks = [...new Set(runtimes.map((runtime) => runtime.bare))];
  const bare: Record<string, number[]> = Object.fromEntries(yardsticks.map((node) => [node, []]));
  const times: Record<string, number[]> = {};
  const ratios: Record<string, number[]> = {};
  for (const runtime of runtimes) {
    times[runtime.name] = [];
    ratios[runtime.name] = [];
  }
  for (let i = 0; i < RUNS; i++) {
    // Each hook run is paired with its yardstick's bare run just before: the ratio resists a host whose speed drifts.
    for (const node of yardsticks) bare[node]!.push(runOnce(node, ['-e', '0'], undefined, env).ms);
    for (const runtime of runtimes) {
      const run = runOnce(runtime.command, args(runtime), path.input(t, project, untimed), env);
      if ((run.status !== 0 || !path.stdout.test(run.stdout)) && !wrong[runtime.name])
        wrong[runtime.name] = `a timed run exited ${run.status} with stdout ${JSON.stringify(run.stdout.slice(0, 120))}`;
      times[runtime.name]!.push(run.ms);
      ratios[runtime.name]!.push(run.ms / bare[runtime.bare]!.at(-1)!);
    }
  }
  const barePeaks: Record<string, number[]> = Object.fromEntries(yardsticks.map((node) => [node, []]));
  const peaks: Record<string, number[]> = {};
  for (const runtime of runtimes) peaks[runtime.name] = [];
  for (let i = 0; i < PEAK_RUNS; i++) {
    for (const node of yardsticks) barePeaks[node]!.push(peakKiB(node, ['-e', '0'], undefined, env));
    for (const runtime of runtimes)
      peaks[runtime.name]!.push(peakKiB(runtime.command, args(runtime), path.input(t, project, untimed), env));
  }
  const cells: Row['cells'] = {};
  for (const runtime of runtimes) {
    let instructionRatio: number | undefined;
    if (countInstructions && runtime.name !== 'bun') {
      const bareCount = instructions(runtime.bare, ['-e', '0'], () => undefined, env);
      const hookCount = instructions(runtime.command, args(runtime), () => path.input(t, project, untimed), env);
      if (bareCount && hookCount) instructionRatio = hookCount / bareCount;
    }
    cells[runtime.name] = {
      ms: median(times[runtime.name]!),
      ratio: median(ratios[runtime.name]!),
      overMB: (median(peaks[runtime.name]!) - median(barePeaks[runtime.bare]!)) / 1024,
      instructionRatio,
      wrong: wrong[runtime.name],
    };
  }
  const lineCells: Row['lines'] = {};
  for (const line of lines) {
    const failed = checkRun({ command: line.command, flags: NODE_FLAGS });
    if (failed) {
      lineCells[line.label] = { instructionRatio: undefined, wrong: failed };
      continue;
    }
    if (!lineBare.has(line.command))
      lineBare.set(
        line.command,
        leastOf(
          instructions(line.command, ['-e', '0'], () => undefined, env),
          instructions(line.command, ['-e', '0'], () => undefined, env),
        ),
      );
    const bareCount = lineBare.get(line.command);
    const hookCount = instructions(line.command, [...NODE_FLAGS, ...scriptArgs(path)], () => path.input(t, project, untimed), env);
    lineCells[line.label] = { instructionRatio: bareCount && hookCount ? hookCount / bareCount : undefined };
  }
  return { size, bytes: statSync(t.turns).size, path, bareMs: median(bare[process.execPath]!), cells, lines: lineCells };
}

/** The least of two counts either of which may be missing. */
const leastOf = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

// ---------------------------------------------------------------- report

/** An instructions-over-bare cell: the ratio and whether it is within the target (–: not counted). */
const instructionText = (ratio: number | undefined) =>
  ratio === undefined ? '–' : `${ratio.toFixed(3)}× ${ratio <= TARGET_RATIO ? '✓' : '✗'}`;

/** A runtime's cells: ms, × bare, instructions × bare (Node only), MB over bare. */
function cellText(cell: Cell | undefined, counted: boolean): string[] {
  const texts = (values: string[]) => (counted ? values : [values[0]!, values[1]!, values[3]!]);
  if (!cell) return texts(['–', '–', '–', '–']);
  if (cell.wrong) return texts(['wrong verdict', '✗', '–', '–']);
  const over = cell.overMB;
  return texts([
    cell.ms.toFixed(1),
    `**${cell.ratio.toFixed(2)}×** ${cell.ratio <= TARGET_RATIO ? '✓' : '✗'}`,
    instructionText(cell.instructionRatio),
    `${over >= 0 ? '+' : ''}${over.toFixed(1)} ${over <= TARGET_MB ? '✓' : '✗'}`,
  ]);
}

/** A row's third column: what ran, and the verdict it must state (the status line: the line it prints). */
const verdictText = (path: PathCase) => (path.statusLine ? `\`statusline.cjs\` → ${path.reason}` : `\`${path.event}\` → ${path.reason}`);

function rowText(row: Row, runtimes: Runtime[]): string {
  const verdict = verdictText(row.path);
  const cells = runtimes.flatMap((runtime) => cellText(row.cells[runtime.name], runtime.name !== 'bun'));
  return `| ${row.size} | ${row.path.path} | ${verdict} | ${row.bareMs.toFixed(1)} | ${cells.join(' | ')} |`;
}

/** The table's head: each runtime's columns in rowText's order. */
function tableHead(runtimes: Runtime[]): string {
  const heads = runtimes.flatMap(({ name, label }) =>
    name === 'bun'
      ? [`${label} ms`, `${label} × bare`, `${label} − bare MB`]
      : [`${label} ms`, `${label} × its bare`, `${label} instr × its bare`, `${label} − its bare MB`],
  );
  return `| transcript | path | event → stated verdict | \`node -e 0\` ms | ${heads.join(' | ')} |\n|${'---|'.repeat(4 + heads.length)}`;
}

/**
 * The older Node lines to count: BENCH_NODE_LINES (versions, comma-separated; `off`: none), else
 * NODE_MAINTAINED_VERSIONS, each fetched once from the npm registry (one that cannot be is left out, said on stderr).
 */
function nodeLines(): NodeLine[] {
  const asked = process.env.BENCH_NODE_LINES;
  if (asked === 'off') return [];
  const versions = asked ? asked.split(',').map((v) => v.trim()) : [...NODE_MAINTAINED_VERSIONS];
  return versions.flatMap((version) => {
    const command = fetchNode(DATA, version);
    if (!command) process.stderr.write(`bench: Node ${version} could not be fetched; its column is left out\n`);
    return command ? [{ label: `node ${version.split('.')[0]}`, version, command }] : [];
  });
}

function lineRowText(row: Row, lines: NodeLine[]): string {
  const verdict = verdictText(row.path);
  const cells = lines.map(({ label }) => {
    const cell = row.lines[label];
    if (cell?.wrong) return 'wrong verdict ✗';
    return instructionText(cell?.instructionRatio);
  });
  return `| ${row.size} | ${row.path.path} | ${verdict} | ${cells.join(' | ')} |`;
}

/** The second table: every path by instructions under each older Node line still maintained. */
function linesReport(rows: Row[], lines: NodeLine[]): string {
  const over = rows.flatMap((row) =>
    lines
      .filter(({ label }) => (row.lines[label]?.instructionRatio ?? 0) > TARGET_RATIO)
      .map(({ label }) => `${row.size} ${row.path.path} (${label} ${row.lines[label]!.instructionRatio!.toFixed(3)}×)`),
  );
  return `
#### The older Node lines still maintained, by instructions

${lines.map(({ version }) => `Node v${version}`).join(' and ')} (the newest of each line, from the npm registry), as many users' machines
have them: each path's main-thread instructions over that Node's own \`node -e 0\`'s, counted as above (the hook's
the least of ${INSTRUCTION_RUNS} runs, after the same check run of its verdict; \`node -e 0\`'s the least of ${2 * INSTRUCTION_RUNS}, once a
bench run). Not timed by wall clock: each line would add the table's length in runs.

| transcript | path | event → stated verdict | ${lines.map(({ label }) => `${label} instr × its bare`).join(' | ')} |
|${'---|'.repeat(3 + lines.length)}
${rows.map((row) => lineRowText(row, lines)).join('\n')}

By instructions on these lines, ${over.length > 0 ? `not within ${TARGET_RATIO}× yet: ${over.join(', ')}.` : `every path within ${TARGET_RATIO}×.`}
`;
}

function main(): void {
  if (!existsSync(HOOK)) throw new Error('plugin/dist/hook.cjs is missing: run npm run build first');
  const bun = findBun();
  const ltsNode = findLtsNode(DATA);
  const runtimes: Runtime[] = [
    {
      name: 'node',
      label: `node ${process.versions.node.split('.')[0]}`,
      command: process.execPath,
      flags: NODE_FLAGS,
      bare: process.execPath,
    },
    ...(ltsNode
      ? [{ name: 'node-lts' as const, label: `node ${NODE_LTS_VERSION.split('.')[0]}`, command: ltsNode, flags: NODE_FLAGS, bare: ltsNode }]
      : []),
    ...(bun ? [{ name: 'bun' as const, label: 'bun', command: bun, flags: [], bare: process.execPath }] : []),
  ];
  const bunVersion = bun ? spawnSync(bun, ['--version'], { encoding: 'utf8' }).stdout.trim() : undefined;
  const lines = countInstructions ? nodeLines() : [];
  // Fresh state and projects each bench run: first warnings and checkpoints must really be first.
  for (const dir of ['state', 'projects', 'home', 'homes']) rmSync(join(DATA, dir), { recursive: true, force: true });
  mkdirSync(join(DATA, 'home'), { recursive: true });
  // The default private state directory a user's hooks have after their first run: the only one the launcher keeps
  // its code cache in (a state directory a variable names may be a repository's choice).
  mkdirSync(STATE, { recursive: true, mode: 0o700 });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: join(DATA, 'home'),
    TMPDIR: DATA,
    // No window stated, as a user with nothing configured: it comes from the transcript's model (the builder's
    // claude-opus-5-5, 1,000,000 tokens in the client's model registry), which is the path users run.
  };
  firstCompaction(env);
  const rows: Row[] = [];
  for (const size of chosenSizes) {
    const bytes = SIZES[size];
    if (!bytes) throw new Error(`unknown size ${size}`);
    process.stderr.write(`bench: preparing the ${size} transcripts\n`);
    const t = { turns: ensureTurns(DATA, size, bytes), compacted: ensureCompacted(DATA, size, bytes) };
    for (const path of paths) {
      process.stderr.write(`bench: ${size} ${path.path}: ${RUNS} paired runs\n`);
      const row = benchPath(size, t, path, runtimes, lines, env);
      rows.push(row);
      process.stderr.write(`${rowText(row, runtimes)}\n`);
      if (lines.length > 0) process.stderr.write(`${lineRowText(row, lines)}\n`);
      for (const [name, cell] of Object.entries(row.cells))
        if (cell?.wrong) process.stderr.write(`bench: WRONG VERDICT ${size} ${path.path} under ${name}: ${cell.wrong}\n`);
    }
  }
  const date = new Date().toISOString().slice(0, 10);
  const wrongRows = rows.flatMap((row) =>
    [...Object.entries(row.cells), ...Object.entries(row.lines)]
      .filter(([, cell]) => cell?.wrong)
      .map(([name, cell]) => `- ${row.size} ${row.path.path} under ${name}: ${cell!.wrong}`),
  );
  const label = (name: string) => runtimes.find((runtime) => runtime.name === name)?.label ?? name;
  const slow = rows.flatMap((row) =>
    Object.entries(row.cells)
      .filter(([, cell]) => cell && !cell.wrong && cell.ratio > TARGET_RATIO)
      .map(([name, cell]) => `${row.size} ${row.path.path} (${label(name)} ${cell!.ratio.toFixed(2)}×)`),
  );
  const slowCounted = rows.flatMap((row) =>
    Object.entries(row.cells)
      .filter(([, cell]) => cell && !cell.wrong && cell.instructionRatio !== undefined && cell.instructionRatio > TARGET_RATIO)
      .map(([name, cell]) => `${row.size} ${row.path.path} (${label(name)} ${cell!.instructionRatio!.toFixed(3)}×)`),
  );
  const report = `## Hook paths: start-up and memory

Generated by \`npm run bench\` (bench/guard.ts) on ${date}.
Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}${ltsNode ? ` and Node v${NODE_LTS_VERSION} (the current LTS line, from the npm registry)` : ''}${bunVersion ? `, Bun ${bunVersion}` : ', no Bun found'}, ${process.platform}.

Each row times one path a session runs, as a whole process, by each runtime the hook command every route writes
picks (\`bun plugin/dist/hook.cjs <event>\` where Bun is on the PATH, else \`${NODE_HOOK} plugin/dist/hook.cjs <event>\`), with the input and settings that produce that verdict; the verdict
column is what the debug channel must state (\`verdict <event>: <reason>\`), checked before timing, and
every timed run's exit code and stdout are checked too (a row whose verdict was wrong says so instead of
a time). The 1 KB transcript is one turn; the 1 GB one is realistic turns (13 KB attachments, tool results
of which every 8th is 1–4 MiB, \`progress\` decoys) with the newest usage, 300,005 tokens of the
1,000,000 window of the transcript's model (30%; no window is stated, as with nothing configured),
**behind a 4 MiB tool result**; "unknown occupancy" ends the same tail with a
\`compact_boundary\` without \`postTokens\` (the 1 GB one sparse up to that tail). "allow with a policy file" runs
with the user's \`~/.claude/context-ceiling.json\` as \`config set ceilingPct 35\` writes it (validated by the check
run, its answer kept as a user's first run keeps it). "warn" and PreCompact
start a fresh session each run (a first warning, checkpoint cx-001); "deduped warn" repeats one; "monitor after a
compaction" prompts in a session that compacted once and was shown its alert (untimed, before the row); "monitor with
500 KB of checkpoint records" does so in a long-lived project, whose records file is at its cap (~1,600 earlier
sessions' records); "SessionStart with 64 checkpoints" starts in a project where 64 earlier sessions compacted and a later
start took their checkpoints, nothing changed since the last start looked (it answers from that start's note), "… after a
change" with that note taken away before each run (untimed): the start that looks and keeps it; "SessionStart after compaction" times the start that follows a PreCompact of a fresh session (run
before it, untimed), as after every compaction (the alert it left). "status line" times \`statusline.cjs\` (install
--statusline; Claude Code runs it after every turn) given the turn's usage, its check the line it prints (with a policy
file: as "allow with a policy file"); "status line
reading the transcript" gets no usage (a resumed session before its first turn) and reads it from the transcript. The
private state directory exists, as after a user's first warning, so Node runs compile from the code cache a
user's runs would have: written by the first run of each kind in row order (the 1 KB rows come first), and once more
by a row's (untimed) check run when it has checkpoints of ours the kind's first run lacked; Bun keeps no cache. Every row starts from a user who has compacted once (a PreCompact in
another project, untimed, before the first row): the private checkpoints folder exists, so the paths that read a
project's checkpoint records look for them as they do from then on. Each row keeps a session and a project of its own.
Each Node runs against its own \`node -e 0\` (a user's hooks run with the Node they have; the LTS Node is the one
installed today), Bun against the machine's Node (Node's floor is the yardstick).
Times are medians of ${RUNS} runs; "× bare" is the median of each run's ratio to its yardstick's \`node -e 0\` run
just before it; memory is the median peak RSS of
${PEAK_RUNS} runs (\`/usr/bin/time -f %M\`) over the yardstick's. "instr × its bare" is the main thread's instructions over
\`node -e 0\`'s, the least of ${INSTRUCTION_RUNS} runs each (valgrind's callgrind), which other load on the host does not change,
net of V8's hash-seed prime search (random per process, 0–10 M in bare Node and hook alike; –: valgrind absent or
BENCH_INSTRUCTIONS=off).
Targets: ≤ ${TARGET_RATIO} × \`node -e 0\`, ≤ bare Node + ${TARGET_MB} MB.

### ${date}

${tableHead(runtimes)}
${rows.map((row) => rowText(row, runtimes)).join('\n')}

By wall time, ${slow.length > 0 ? `not within ${TARGET_RATIO}× yet: ${slow.join(', ')}.` : `every path within ${TARGET_RATIO}×.`}
By instructions, ${slowCounted.length > 0 ? `not within ${TARGET_RATIO}× yet: ${slowCounted.join(', ')}.` : `every Node path within ${TARGET_RATIO}×.`}
${lines.length > 0 ? linesReport(rows, lines) : ''}${wrongRows.length > 0 ? `\nWrong verdicts (not results):\n\n${wrongRows.join('\n')}\n` : ''}`;
  writeSection(join(ROOT, 'bench', 'RESULTS.md'), 'guard', report);
  process.stderr.write('bench: wrote bench/RESULTS.md\n');
  if (wrongRows.length > 0) process.exitCode = 1;
}

main();
