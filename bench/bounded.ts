/**
 * Bounded resources: every hook a session runs (PreToolUse, UserPromptSubmit, PreCompact, PostCompact, SessionStart
 * on startup and after a compaction, PostToolUse) and the status line, on a 1 GiB transcript of realistic turns and on
 * a transcript that is one 1 GiB line, run by the command every install route writes, under the machine's Node, the
 * current LTS Node and Bun. Each must read at most its byte cap (maxScanBytes, 64 MiB) of the transcript, stay within
 * bare Node + 30 MB whatever the file, take a bounded time (the guard's wait for the calling turn's record, 500 ms,
 * included: on the 1 GiB line it never comes), and give the answer it gives on any transcript: every row
 * checks the verdict its hook stated (the debug channel's `verdict <event>: <reason>`, the status line's printed line)
 * on every run, timed or not. `replay` runs over each file too (it reads the whole file forwards): its answer is
 * checked, and its memory must stay within 30 MB of its replay of an empty history whatever one line holds. Writes its
 * section of bench/RESULTS.md; exits 1 when any answer was wrong.
 *
 *   npm run bench:bounded      (BENCH_RUNS=7 BENCH_BUN=/path/to/bun|off BENCH_NODE_LTS=/path/to/node|off)
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { NODE_HOOK } from '../src/core/hook-table.js';
import { aTranscript } from '../src/samples/transcript-builder.js';
import { findLtsNode, NODE_LTS_VERSION } from './lts-node.js';
import { DATA, findBun, median, peakKiB, ROOT, type Run, runOnce } from './processes.js';
import { writeSection } from './results.js';
import { CALL_ID, ensureTurns, MiB } from './transcripts.js';

const HOOK = join(ROOT, 'plugin', 'dist', 'hook.cjs');
const STATUSLINE = join(ROOT, 'plugin', 'dist', 'statusline.cjs');
const CLI = join(ROOT, 'plugin', 'dist', 'cli.cjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PEAK_RUNS = 3;
/** The most of a transcript any hook reads backwards (maxScanBytes). */
const CAP = 64 * MiB;
const TARGET_MB = 30;
/** Node's flags in the hook command every route writes where Bun is absent (NODE_HOOK: `node <flags>`). */
const NODE_FLAGS = NODE_HOOK.split(' ').slice(1);

/** One assistant turn, then a single 1 GiB line (a tool result): the worst a transcript can be for a backward reader. */
function ensureOneLine(): string {
  const path = join(DATA, 'one-line-1GB-v1.jsonl');
  if (existsSync(path)) return path;
  mkdirSync(DATA, { recursive: true });
  const fd = openSync(`${path}.part`, 'w');
  writeSync(
    fd,
    aTranscript()
      .assistant({ cacheRead: 60_000 - 5 })
      .toString(),
  );
  writeSync(fd, '{"type":"user","message":{"role":"user","content":"');
  const block = Buffer.alloc(16 * MiB, 'x');
  for (let written = 0; written < 1024 * MiB; written += block.length) writeSync(fd, block);
  writeSync(fd, '"}}\n');
  closeSync(fd);
  renameSync(`${path}.part`, path);
  return path;
}

type Shape = 'turns' | 'line';

/**
 * One hook run as a session makes it. `input` gets the transcript and a session id; `before`, when given, is run
 * first in the same session, untimed (a PreCompact before the hooks that follow a compaction). `answer`: what the
 * hook must state on each transcript; `reads`: whether it reads the transcript backwards at all (its debug line
 * then says how far).
 */
type Case = {
  path: string;
  event: string;
  statusLine?: true;
  input: (transcript: string, session: string, project: string) => string;
  before?: { event: string; input: (transcript: string, session: string, project: string) => string };
  answer: Record<Shape, RegExp>;
  /** What the model or the person must be shown, where the hook shows anything (ANSI colours taken out). */
  shows?: Record<Shape, RegExp>;
  reads: boolean;
};

const hookInput = (event: string, transcript: string, session: string, cwd: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: session, transcript_path: transcript, cwd, hook_event_name: event, ...extra });

const preCompact = (transcript: string, session: string, project: string) =>
  hookInput('PreCompact', transcript, session, project, { trigger: 'auto', custom_instructions: null });

/**
 * The answers: on the 1 GiB of turns, the newest usage (300,005 tokens, 30 % of the 1,000,000 window of the transcript's
 * model; nothing configured) lies behind a 4 MiB line, within the cap; on the 1 GiB line no usage is reachable within
 * the cap, so the occupancy is unknown and every hook fails open, saying why.
 */
const CASES: Case[] = [
  {
    path: 'PreToolUse (a Skill)',
    event: 'pre-tool-use',
    input: (transcript, session, project) =>
      hookInput('PreToolUse', transcript, session, project, {
        tool_name: 'Skill',
        tool_input: { skill: 'deep-dive' },
        tool_use_id: CALL_ID,
      }),
    answer: { turns: /^allow below-ceiling$/, line: /^allow unmeasured scan-cap$/ },
    reads: true,
  },
  {
    path: 'UserPromptSubmit (the monitor)',
    event: 'user-prompt-submit',
    input: (transcript, session, project) => hookInput('UserPromptSubmit', transcript, session, project, { prompt: 'next step' }),
    answer: { turns: /^monitor nominal$/, line: /^monitor unmeasured scan-cap$/ },
    shows: {
      turns: /Context 30% \(300,005 of 1,000,000 tokens/,
      line: /Context not measured: no turn with usage in the last 64\.0 MiB of the transcript/,
    },
    reads: true,
  },
  {
    path: 'PreCompact',
    event: 'pre-compact',
    input: preCompact,
    answer: { turns: /^checkpoint cx-001$/, line: /^checkpoint cx-001$/ },
    reads: true,
  },
  {
    path: 'PostCompact',
    event: 'post-compact',
    input: (transcript, session, project) =>
      hookInput('PostCompact', transcript, session, project, {
        trigger: 'auto',
        compact_summary: 'Summary: the work continues with the next step.',
      }),
    before: { event: 'pre-compact', input: preCompact },
    answer: { turns: /^summary-kept$/, line: /^summary-kept$/ },
    reads: false,
  },
  {
    path: 'SessionStart (startup)',
    event: 'session-start',
    input: (transcript, session, project) => hookInput('SessionStart', transcript, session, project, { source: 'startup' }),
    answer: { turns: /^no-checkpoint-to-resume/, line: /^no-checkpoint-to-resume/ },
    reads: false,
  },
  {
    path: 'SessionStart (after a compaction)',
    event: 'session-start',
    input: (transcript, session, project) => hookInput('SessionStart', transcript, session, project, { source: 'compact' }),
    before: { event: 'pre-compact', input: preCompact },
    answer: { turns: /^compaction-alert$/, line: /^compaction-alert$/ },
    reads: false,
  },
  {
    path: 'PostToolUse (a Write)',
    event: 'post-tool-use',
    input: (transcript, session, project) =>
      hookInput('PostToolUse', transcript, session, project, {
        tool_name: 'Write',
        tool_input: { file_path: join(project, 'src', 'index.ts'), content: 'x' },
        tool_response: { success: true },
      }),
    answer: { turns: /^not-the-orchestration-file$/, line: /^not-the-orchestration-file$/ },
    reads: false,
  },
  {
    // A resumed session before its first turn: Claude Code gives no usage, so the line comes from the transcript.
    path: 'status line (reading the transcript)',
    event: 'statusline',
    statusLine: true,
    input: (transcript, session, project) =>
      JSON.stringify({
        session_id: session,
        transcript_path: transcript,
        cwd: project,
        model: { id: 'claude-opus-5-5', display_name: 'Opus 5.5' },
        workspace: { current_dir: project, project_dir: project },
        version: '2.1.332',
        context_window: { context_window_size: 1_000_000, current_usage: null },
      }),
    answer: { turns: /^ctx 30% .* 300,005\/1,000,000 /, line: /^ctx –\/1,000,000 not measured: no turn in the last 64\.0 MiB/ },
    reads: true,
  },
];

/** `bare`: the Node whose `node -e 0` is its yardstick (each Node its own; Bun the machine's Node, Node's floor). */
type Runtime = { label: string; command: string; flags: string[]; bare: string };

/** What one run answered: its exit code, the verdict it stated (the status line: the line it printed) and how far it read. */
type Answer = { status: number | null; said: string; shown: string; scanned: number };

function answerOf(run: Run, log: string, c: Case): Answer {
  const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
  rmSync(log, { force: true });
  const verdicts = [...text.matchAll(/verdict ([a-z-]+): (.*)$/gm)];
  const last = verdicts[verdicts.length - 1];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the status line's colours are ANSI escapes
  const shown = run.stdout.replace(/\u001b\[[0-9;]*m/g, '').trim();
  const said = c.statusLine ? shown : last && last[1] === c.event ? last[2]!.trim() : '(no verdict line)';
  const scanned = Math.max(0, ...[...text.matchAll(/scanned=(\d+)/g)].map((m) => Number(m[1])));
  return { status: run.status, said, shown, scanned };
}

/** Why an answer is wrong, or undefined when it is the case's. */
function wrongness(answer: Answer, c: Case, shape: Shape): string | undefined {
  if (answer.status !== 0) return `exit ${answer.status}`;
  if (!c.answer[shape].test(answer.said)) return `stated "${answer.said.slice(0, 120)}", not ${c.answer[shape]}`;
  if (c.shows && !c.shows[shape].test(answer.shown)) return `showed "${answer.shown.slice(0, 160)}", not ${c.shows[shape]}`;
  if (answer.scanned > CAP) return `read ${answer.scanned} bytes, past the ${CAP}-byte cap`;
  if (c.reads && answer.scanned === 0) return 'no debug line said how far it read';
  return undefined;
}

type Cell = { ms: number; ratio: number; peakMB: number; overMB: number; wrong: string | undefined };
type Row = { shape: Shape; label: string; c: Case; scanned: number; cells: Map<string, Cell> };

let serial = 0;

function benchCase(
  shape: Shape,
  transcript: string,
  c: Case,
  runtimes: Runtime[],
  env: NodeJS.ProcessEnv,
  bareKiB: Map<string, number>,
): Row {
  const project = join(DATA, 'bounded-projects', `${shape}-${c.event}-${serial}`);
  mkdirSync(project, { recursive: true });
  const log = join(DATA, `bounded-debug-${process.pid}.log`);
  const caseEnv = { ...env, CLAUDE_PROJECT_DIR: project, DEV_TEAM_CONTEXT_DEBUG: log };
  const row: Row = { shape, label: '', c, scanned: 0, cells: new Map() };
  const script = c.statusLine ? [STATUSLINE] : [HOOK, c.event];
  for (const runtime of runtimes) {
    // Every run its own session: PreCompact's checkpoint is then always the session's first, and a hook that follows a
    // compaction follows its own session's.
    const session = () => {
      const id = `bounded-${shape}-${c.event}-${process.pid}-${serial++}`;
      if (c.before) {
        const prepared = runOnce(
          runtime.command,
          [...runtime.flags, HOOK, c.before.event],
          c.before.input(transcript, id, project),
          caseEnv,
        );
        rmSync(log, { force: true });
        if (prepared.status !== 0) throw new Error(`bench: ${c.before.event} before ${c.path} exited ${prepared.status}`);
      }
      return c.input(transcript, id, project);
    };
    let wrong: string | undefined;
    const ratios: number[] = [];
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const input = session();
      const bare = runOnce(runtime.bare, ['-e', '0'], '', env);
      const run = runOnce(runtime.command, [...runtime.flags, ...script], input, caseEnv);
      const answer = answerOf(run, log, c);
      wrong ??= wrongness(answer, c, shape);
      row.scanned = Math.max(row.scanned, answer.scanned);
      times.push(run.ms);
      ratios.push(run.ms / bare.ms);
    }
    const peaks = Array.from({ length: PEAK_RUNS }, () => peakKiB(runtime.command, [...runtime.flags, ...script], session(), caseEnv));
    rmSync(log, { force: true });
    const peakMB = median(peaks) / 1024;
    const overMB = peakMB - bareKiB.get(runtime.bare)! / 1024;
    row.cells.set(runtime.label, { ms: median(times), ratio: median(ratios), peakMB, overMB, wrong });
  }
  return row;
}

function rowText(row: Row, runtimes: Runtime[]): string {
  const verdict = row.c.statusLine ? `\`statusline.cjs\` → ${row.c.answer[row.shape]}` : `\`${row.c.event}\` → ${row.c.answer[row.shape]}`;
  const scanned = row.c.reads ? `${(row.scanned / MiB).toFixed(1)} MiB ${row.scanned <= CAP ? '✓' : '✗'}` : 'none';
  const cells = runtimes.flatMap((runtime) => {
    const cell = row.cells.get(runtime.label);
    if (!cell) return ['–', '–'];
    if (cell.wrong) return [`**wrong: ${cell.wrong}**`, '–'];
    return [
      `${cell.ms.toFixed(1)} (${cell.ratio.toFixed(2)}×)`,
      `${cell.peakMB.toFixed(1)}, **${cell.overMB >= 0 ? '+' : ''}${cell.overMB.toFixed(1)}** ${cell.overMB <= TARGET_MB ? '✓' : '✗'}`,
    ];
  });
  return `| ${row.label} | ${row.c.path} | ${verdict.replaceAll('|', '\\|')} | ${scanned} | ${cells.join(' | ')} |`;
}

/**
 * `replay` over each transcript, as a user points it at a history (the file alone in a \`~/.claude/projects\` folder):
 * it reads the whole file forwards, so what is bounded is its memory, whatever one line holds. Its answer is checked
 * on every run: one session, the peak the transcript holds (30 % behind the 4 MiB line; 6 % before the 1 GiB line),
 * no line that did not parse, and the 1 GiB line counted as over the 64 MiB limit (the 1 GiB of turns has none).
 */
const REPLAY_ANSWER: Record<Shape, { peak: number; oversized: number }> = {
  turns: { peak: 30.0005, oversized: 0 },
  line: { peak: 6, oversized: 1 },
};

/** A replay cell: no ratio to a bare start (a whole history's read is not a start-up cost). */
type ReplayCell = Omit<Cell, 'ratio'>;
type ReplayRow = { shape: Shape; label: string; cells: Map<string, ReplayCell>; emptyMB: Map<string, number> };

function replayWrongness(run: Run, shape: Shape): string | undefined {
  if (run.status !== 0) return `exit ${run.status}`;
  try {
    const r = JSON.parse(run.stdout) as { sessions: number; peak: { max: number }; corrupt: { lines: number; oversizedLines: number } };
    const want = REPLAY_ANSWER[shape];
    if (
      r.sessions !== 1 ||
      Math.abs(r.peak.max - want.peak) > 0.001 ||
      r.corrupt.lines !== 0 ||
      r.corrupt.oversizedLines !== want.oversized
    )
      return `answered ${r.sessions} session(s), peak ${r.peak.max} %, ${r.corrupt.lines} corrupt and ${r.corrupt.oversizedLines} oversized line(s)`;
    return undefined;
  } catch {
    return `printed no replay JSON: ${run.stdout.slice(0, 80)}`;
  }
}

function benchReplay(
  shape: Shape,
  transcript: string,
  runtimes: Runtime[],
  env: NodeJS.ProcessEnv,
  bareKiB: Map<string, number>,
): ReplayRow | undefined {
  const home = join(DATA, 'bounded-home', `replay-${shape}`);
  const empty = join(DATA, 'bounded-home', 'replay-empty');
  const folder = join(home, '.claude', 'projects', '-bench-bounded');
  for (const dir of [folder, join(empty, '.claude', 'projects')]) mkdirSync(dir, { recursive: true });
  try {
    // A hard link: a copy of 1 GiB would cost more than the bench (replay reads regular files, never a symlink).
    linkSync(transcript, join(folder, '00000000-0000-4000-8000-000000000001.jsonl'));
  } catch (error) {
    process.stderr.write(`bench: replay rows left out (${(error as Error).message})\n`);
    return undefined;
  }
  const row: ReplayRow = { shape, label: '', cells: new Map(), emptyMB: new Map() };
  const at = (dir: string) => ({ ...env, HOME: dir, CLAUDE_CONFIG_DIR: join(dir, '.claude'), NO_COLOR: '1' });
  for (const runtime of runtimes) {
    // Node's run is Node's own (no handover to a Bun on the PATH); one reading thread, the default on a busy host.
    const args = [CLI, 'replay', '--json', '--jobs', '1', ...(runtime.command === runtime.bare ? ['--runtime', 'node'] : [])];
    let wrong: string | undefined;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = runOnce(runtime.command, args, '', at(home));
      wrong ??= replayWrongness(run, shape);
      times.push(run.ms);
    }
    const peakMB = median(Array.from({ length: PEAK_RUNS }, () => peakKiB(runtime.command, args, '', at(home)))) / 1024;
    const emptyMB = median(Array.from({ length: PEAK_RUNS }, () => peakKiB(runtime.command, args, '', at(empty)))) / 1024;
    row.emptyMB.set(runtime.label, emptyMB);
    row.cells.set(runtime.label, { ms: median(times), peakMB, overMB: peakMB - bareKiB.get(runtime.bare)! / 1024, wrong });
  }
  return row;
}

function replayRowText(row: ReplayRow, runtimes: Runtime[]): string {
  const want = REPLAY_ANSWER[row.shape];
  const cells = runtimes.flatMap((runtime) => {
    const cell = row.cells.get(runtime.label);
    if (!cell) return ['–', '–'];
    if (cell.wrong) return [`**wrong: ${cell.wrong}**`, '–'];
    const overEmpty = cell.peakMB - row.emptyMB.get(runtime.label)!;
    return [
      `${cell.ms.toFixed(1)}`,
      `${cell.peakMB.toFixed(1)}, ${cell.overMB >= 0 ? '+' : ''}${cell.overMB.toFixed(1)} over bare, **${overEmpty >= 0 ? '+' : ''}${overEmpty.toFixed(1)}** over an empty history ${overEmpty <= TARGET_MB ? '✓' : '✗'}`,
    ];
  });
  return `| ${row.label} | 1 session, peak ${want.peak} %, ${want.oversized} line(s) over 64 MiB | ${cells.join(' | ')} |`;
}

function main(): void {
  if (!existsSync(HOOK)) throw new Error('plugin/dist/hook.cjs is missing: run npm run build first');
  const bun = findBun();
  const ltsNode = findLtsNode(DATA);
  const runtimes: Runtime[] = [
    { label: `node ${process.versions.node.split('.')[0]}`, command: process.execPath, flags: NODE_FLAGS, bare: process.execPath },
    ...(ltsNode ? [{ label: `node ${NODE_LTS_VERSION.split('.')[0]}`, command: ltsNode, flags: NODE_FLAGS, bare: ltsNode }] : []),
    ...(bun ? [{ label: 'bun', command: bun, flags: [], bare: process.execPath }] : []),
  ];
  const bunVersion = bun ? spawnSync(bun, ['--version'], { encoding: 'utf8' }).stdout.trim() : undefined;
  process.stderr.write('bench: preparing the 1 GiB transcripts\n');
  const transcripts: Array<{ shape: Shape; label: string; path: string }> = [
    { shape: 'turns', label: '1 GiB of turns', path: ensureTurns(DATA, '1GB', 1024 * MiB) },
    { shape: 'line', label: 'one 1 GiB line', path: ensureOneLine() },
  ];
  // A fresh home, state and projects each run: nothing configured, as a user who installed and changed nothing.
  for (const dir of ['bounded-home', 'bounded-projects']) rmSync(join(DATA, dir), { recursive: true, force: true });
  mkdirSync(join(DATA, 'bounded-home'), { recursive: true });
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', HOME: join(DATA, 'bounded-home'), TMPDIR: DATA };
  const bareKiB = new Map<string, number>();
  for (const runtime of runtimes)
    if (!bareKiB.has(runtime.bare))
      bareKiB.set(runtime.bare, median(Array.from({ length: PEAK_RUNS }, () => peakKiB(runtime.bare, ['-e', '0'], '', env))));
  const bareMs = median(Array.from({ length: RUNS }, () => runOnce(process.execPath, ['-e', '0'], '', env).ms));
  const rows: Row[] = [];
  for (const transcript of transcripts) {
    const size = statSync(transcript.path).size;
    for (const c of CASES) {
      const row = benchCase(transcript.shape, transcript.path, c, runtimes, env, bareKiB);
      row.label = `${transcript.label} (${(size / MiB).toFixed(0)} MiB)`;
      rows.push(row);
      process.stderr.write(`${rowText(row, runtimes)}\n`);
    }
  }
  const replayRows: ReplayRow[] = [];
  for (const transcript of transcripts) {
    const row = benchReplay(transcript.shape, transcript.path, runtimes, env, bareKiB);
    if (!row) break;
    row.label = `${transcript.label} (${(statSync(transcript.path).size / MiB).toFixed(0)} MiB)`;
    replayRows.push(row);
    process.stderr.write(`${replayRowText(row, runtimes)}\n`);
  }
  const wrong = [
    ...rows.flatMap((row) =>
      [...row.cells].filter(([, cell]) => cell.wrong).map(([label, cell]) => `- ${row.label} ${row.c.path} under ${label}: ${cell.wrong}`),
    ),
    ...replayRows.flatMap((row) =>
      [...row.cells].filter(([, cell]) => cell.wrong).map(([label, cell]) => `- ${row.label} replay under ${label}: ${cell.wrong}`),
    ),
  ];
  const date = new Date().toISOString().slice(0, 10);
  const bareLine = [...bareKiB]
    .map(
      ([command, kib]) =>
        `${command === process.execPath ? `Node ${process.version}` : `Node v${NODE_LTS_VERSION}`} ${(kib / 1024).toFixed(1)} MB`,
    )
    .join(', ');
  writeSection(
    join(ROOT, 'bench', 'RESULTS.md'),
    'bounded',
    `## Bounded resources on hostile transcripts

Generated by \`npm run bench:bounded\` (bench/bounded.ts) on ${date}.
Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}${ltsNode ? ` and Node v${NODE_LTS_VERSION} (the current LTS line)` : ''}${bunVersion ? `, Bun ${bunVersion}` : ', no Bun found'}.
Every hook a session runs, and the status line, on two 1 GiB transcripts: realistic turns whose newest usage
(300,005 tokens, 30 % of the 1,000,000 window of the transcript's model, nothing configured) sits behind a 4 MiB line,
and one assistant turn followed by a single 1 GiB line, where no usage is reachable within the cap, so each hook
says the occupancy is unknown and lets everything through. Each is run by the command every install route writes
(\`bun …\` where Bun is on the PATH, else \`${NODE_HOOK} …\`), under each runtime, each run its own session (a
PreCompact first, untimed, for the hooks that follow a compaction), with nothing configured. The verdict column is
what the hook must state on every run (the debug channel's \`verdict <event>: <reason>\`; the status line's printed
line), its exit code 0, and the monitor's text must say what was measured (30 %, or that no turn lay within the 64 MiB
it read, never that there was none); "read" is the most transcript bytes one run read backwards (the debug channel's
\`scanned=\`; "none": the hook does not read the transcript); the cap is 64 MiB. Time is the median of ${RUNS} runs, and
"×" the median of each run's ratio to the yardstick's \`node -e 0\` run just before it (each Node its own, Bun the
machine's Node; \`node -e 0\` took ${bareMs.toFixed(1)} ms here); memory is the median peak RSS of ${PEAK_RUNS} runs
(\`/usr/bin/time -f %M\`) and how far it is over the yardstick's (${bareLine}). Targets: at most the cap read, at
most bare + ${TARGET_MB} MB; the time is bounded by the cap and, for PreToolUse on the 1 GiB line, by the 500 ms the
guard waits for the calling turn's record when no turn lies within reach (the record never comes here; Claude Code
writes it within milliseconds: test/e2e/claude-code.test.ts › 4b) (timing targets: "Hook paths" above).

### ${date}

| transcript | hook | verdict | read (cap 64 MiB) | ${runtimes.map((r) => `${r.label} ms (× bare) | ${r.label} peak MB, over bare`).join(' | ')} |
|---|---|---|---|${runtimes.map(() => '---|---|').join('')}
${rows.map((row) => rowText(row, runtimes)).join('\n')}
${
  replayRows.length > 0
    ? `
\`context-ceiling replay --json --jobs 1\` over each transcript (alone in a \`~/.claude/projects\` folder; Node's run its
own, \`--runtime node\`): replay reads the whole file forwards, so what is bounded is its memory whatever one line
holds. The answer column is what every run must print; time is the median of ${RUNS} runs; memory is the median peak
RSS of ${PEAK_RUNS} runs, over the yardstick's \`node -e 0\` and over the same command's replay of an empty history
(the CLI's own footprint). Target: at most ${TARGET_MB} MB over an empty history (no line here is one replay keeps).

| transcript | answer | ${runtimes.map((r) => `${r.label} ms | ${r.label} peak MB`).join(' | ')} |
|---|---|${runtimes.map(() => '---|---|').join('')}
${replayRows.map((row) => replayRowText(row, runtimes)).join('\n')}
`
    : ''
}${wrong.length > 0 ? `\nWrong answers (not results):\n\n${wrong.join('\n')}\n` : ''}`,
  );
  process.stderr.write('bench: wrote bench/RESULTS.md\n');
  if (wrong.length > 0) process.exitCode = 1;
}

main();
