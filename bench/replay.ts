/**
 * `context-ceiling replay` against `ccusage session --json --offline` on the same corpus, side by side,
 * paired round by round, under the machine's Node, the current LTS Node (bench/lts-node.ts) and Bun, and as
 * the user runs it: `node cli.cjs replay` with Bun on the PATH, which hands the run to Bun. Every run's
 * output is checked: ours against counts
 * the generator knows and against a naive in-process replay (every line parsed), ccusage against the
 * generator's token totals. Writes a dated section to bench/RESULTS.md (the table before it kept beside it, older ones
 * moved to bench/HISTORY.md).
 *
 *   npm run bench:replay      (BENCH_REPLAY_ROUNDS=10 BENCH_REPLAY_SESSIONS=40 BENCH_REPLAY_SESSION_MIB=10;
 *                              BUN=path/to/bun, else `bun` on PATH, else bun@BUN_VERSION fetched into bench/.data)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { BUN_FLOOR, bunTooOld } from '../src/core/bun-floor.js';
import { resolvePolicy } from '../src/core/policy.js';
import { analyzeSession, recordedTools, summarize, TimelineBuilder } from '../src/core/replay.js';
import { aTranscript } from '../src/samples/transcript-builder.js';
import { recordedSessionWindow } from '../src/window/session-window.js';
import { replayFile } from '../src/cli/replay-file.js';
import { bunOutreads } from '../src/cli/replay-runtime.js';
import { findOnPath } from '../src/io/on-path.js';
import { findLtsNode, NODE_LTS_VERSION } from './lts-node.js';
import { appendToHistory, writeSection } from './results.js';

const ROOT = findRoot(import.meta.dirname ?? process.cwd());
const DATA = join(ROOT, 'bench', '.data');
const CLI = join(ROOT, 'plugin', 'dist', 'cli.cjs');
/** ccusage, fetched by this script into bench/.data/tools (not a devDependency: its platform packages break `npm ci`'s lock check). */
const CCUSAGE_VERSION = '20.0.24';
const TOOLS = join(DATA, 'tools');
const CCUSAGE = join(TOOLS, 'node_modules', 'ccusage', 'src', 'cli.js');
const SESSIONS = Number(process.env.BENCH_REPLAY_SESSIONS ?? 40);
const SESSION_MIB = Number(process.env.BENCH_REPLAY_SESSION_MIB ?? 10);
const ROUNDS = Number(process.env.BENCH_REPLAY_ROUNDS ?? 10);
/** The Bun fetched when none is given or on the PATH. */
const BUN_VERSION = '1.4.5';
/** Bump when the generated shape changes, so a stale corpus is rebuilt. */
const SHAPE = 'v3';
const CORPUS = join(DATA, `replay-${SHAPE}-${SESSIONS}x${SESSION_MIB}`);
const HOME = join(CORPUS, 'home');
const PROJECTS = join(HOME, '.claude', 'projects');
const MiB = 1024 * 1024;
const CEILINGS = [20, 30, 40, 50, 60];
const WINDOW = 200_000;
const MODEL = 'claude-sonnet-4-5';

function findRoot(from: string): string {
  for (let dir = from; ; dir = resolve(dir, '..')) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dir === resolve(dir, '..')) return process.cwd();
  }
}

/** What the generator wrote, counted as it wrote it: the answer every run is checked against. */
type Expected = {
  bytes: number;
  sessions: number;
  compactions: number;
  /** Gated calls over each ceiling, by tool: (fill + input) / window ≥ ceiling, the guard's rule. */
  gated: Record<number, Record<string, number>>;
  sessionsGated: Record<number, number>;
  peakMax: number;
  /** What ccusage sums: every main-thread assistant turn's usage (progress decoys carry no usage it reads). */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
};

/**
 * Sessions laid out as ~/.claude/projects: 8 projects, each session ≥ SESSION_MIB of realistic turns
 * (prompt, sometimes an 8 KB attachment, an assistant turn with its usage and a tool call — every 9th
 * a Skill, every 13th an Agent, followed by `progress` decoys nesting the subagent's usage — the tool
 * result, 3–33 KB, every 60th 512 KiB, bookkeeping records); compacted near 80 % of a 200K window.
 */
function ensureCorpus(): Expected {
  const manifest = join(CORPUS, 'expected.json');
  if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')) as Expected;
  rmSync(CORPUS, { recursive: true, force: true });
  const expected: Expected = {
    bytes: 0,
    sessions: SESSIONS,
    compactions: 0,
    gated: Object.fromEntries(CEILINGS.map((c) => [c, {}])),
    sessionsGated: Object.fromEntries(CEILINGS.map((c) => [c, 0])),
    peakMax: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    totalTokens: 0,
  };
  for (let s = 0; s < SESSIONS; s++) {
    const id = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    const t = aTranscript(id, `/home/dev/p${s % 8}`).modelAttachment(MODEL);
    const gatedHere = new Set<number>();
    let fill = 5_000;
    let size = 0;
    for (let turn = 0; size < SESSION_MIB * MiB; turn++) {
      fill += 300 + ((s * 31 + turn * 17) % 900);
      if (fill > 0.8 * WINDOW) {
        t.compactBoundary({ trigger: 'auto', preTokens: fill, postTokens: 20_000 });
        expected.compactions += 1;
        fill = 20_000;
      }
      const tool =
        turn % 9 === 4
          ? { name: 'Skill', input: { skill: 'deep-dive' } }
          : turn % 13 === 6
            ? { name: 'Agent', input: { subagent_type: 'Explore' } }
            : { name: 'Read', input: { file_path: `src/f${turn}.ts` } };
      const output = 50 + (turn % 400);
      t.user(`step ${turn}`);
      if (turn % 3 === 0) t.attachment(8_000);
      t.assistant({ model: MODEL, cacheRead: fill, output, toolUse: tool });
      const tokens = fill + 5; // the builder's input_tokens
      expected.inputTokens += 5;
      expected.cacheReadTokens += fill;
      expected.outputTokens += output;
      expected.peakMax = Math.max(expected.peakMax, (tokens / WINDOW) * 100);
      if (tool.name !== 'Read')
        for (const c of CEILINGS)
          if ((tokens / WINDOW) * 100 >= c) {
            expected.gated[c]![tool.name] = (expected.gated[c]![tool.name] ?? 0) + 1;
            gatedHere.add(c);
          }
      if (tool.name === 'Agent') for (let p = 0; p < 6; p++) t.progress({ cacheRead: 150_000 + p * 1_000 });
      t.toolResult(turn % 60 === 59 ? 512 * 1024 : 3_000 + ((turn * 7919) % 30_000));
      t.noise();
      // Lines are appended, so the builder's text length grows monotonically: measure it every 16 turns.
      if (turn % 16 === 15) size = t.toString().length;
    }
    for (const c of gatedHere) expected.sessionsGated[c]! += 1;
    // Claude Code's message and request ids are unique; ccusage drops repeats of a pair across files.
    const text = t.toString().replaceAll('"id":"msg_', `"id":"msg_${s}_`).replaceAll('"requestId":"req_', `"requestId":"req_${s}_`);
    const dir = join(PROJECTS, `-home-dev-p${s % 8}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}.jsonl`), text);
    expected.bytes += Buffer.byteLength(text);
  }
  expected.totalTokens = expected.inputTokens + expected.outputTokens + expected.cacheReadTokens;
  writeFileSync(`${manifest}.part`, JSON.stringify(expected));
  renameSync(`${manifest}.part`, manifest);
  return expected;
}

function sessionFiles(): string[] {
  return readdirSync(PROJECTS, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(PROJECTS, f));
}

/** Today's answer, the slow way: every line parsed, no prefilter, one file after another, the same core rules. */
function naiveReplay(files: string[]): unknown {
  const { policy } = resolvePolicy([]);
  const analyses = files.map((file) => {
    const timeline = new TimelineBuilder(recordedTools(policy));
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line) timeline.add(JSON.parse(line));
    const window = recordedSessionWindow({}, timeline, {});
    return analyzeSession(timeline.events, { window, ceilings: CEILINGS, policy });
  });
  return summarize(analyses, CEILINGS);
}

/** In-process throughput, MiB/s, median of three: `replay`'s scanner and the naive every-line parse, same rules. */
function throughput(files: string[], bytes: number): { scanner: number; naive: number } {
  const { policy } = resolvePolicy([]);
  const rate = (run: () => void) => {
    const rates: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = process.hrtime.bigint();
      run();
      rates.push(bytes / MiB / (Number(process.hrtime.bigint() - start) / 1e9));
    }
    return median(rates);
  };
  const scanner = rate(() => {
    for (const file of files) replayFile(file, { gated: [...recordedTools(policy)], stated: {}, env: {}, ceilings: CEILINGS, policy });
  });
  return { scanner, naive: rate(() => naiveReplay(files)) };
}

type Check = (stdout: string) => string | undefined;
/** How many threads replay said it read with, over every run. */
const oursThreads = new Set<number>();

/** `jobs`: the threads the run was told to use (checked); without it, the threads replay chose are noted. */
function checkOurs(expected: Expected, naive: unknown, jobs?: number): Check {
  return (stdout) => {
    let report: Record<string, unknown> & { ceilings: Array<Record<string, unknown>> };
    try {
      report = JSON.parse(stdout);
    } catch {
      return `not JSON: ${stdout.slice(0, 200)}`;
    }
    const { files, bytes, seconds: _, threads, corrupt, html: _html, ...summary } = report;
    const problems: string[] = [];
    if (jobs === undefined) oursThreads.add(threads as number);
    else if (threads !== jobs) problems.push(`threads ${threads} ≠ ${jobs}`);
    if (bytes !== expected.bytes) problems.push(`bytes ${bytes} ≠ ${expected.bytes}`);
    if (JSON.stringify(files) !== JSON.stringify({ sessions: expected.sessions, subagents: 0, summarisers: 0 }))
      problems.push(`files ${JSON.stringify(files)}`);
    if (JSON.stringify(corrupt) !== JSON.stringify({ unreadableFiles: 0, lines: 0, oversizedLines: 0 }))
      problems.push(`corrupt ${JSON.stringify(corrupt)}`);
    if (summary.sessions !== expected.sessions) problems.push(`sessions ${summary.sessions}`);
    if (summary.compactions !== expected.compactions) problems.push(`compactions ${summary.compactions} ≠ ${expected.compactions}`);
    const peak = summary.peak as { max: number } | undefined;
    if (peak?.max !== expected.peakMax) problems.push(`peak ${peak?.max} ≠ ${expected.peakMax}`);
    for (const row of report.ceilings) {
      const c = row.ceiling as number;
      if (JSON.stringify(sortKeys(row.gatedByTool)) !== JSON.stringify(sortKeys(expected.gated[c])))
        problems.push(`${c}%: gated ${JSON.stringify(row.gatedByTool)} ≠ ${JSON.stringify(expected.gated[c])}`);
      if (row.sessionsGated !== expected.sessionsGated[c]) problems.push(`${c}%: sessions gated ${row.sessionsGated}`);
    }
    if (JSON.stringify(summary) !== JSON.stringify(naive)) problems.push('summary differs from the naive replay');
    return problems.length ? problems.join('; ') : undefined;
  };
}

function sortKeys(value: unknown): unknown {
  return Object.fromEntries(Object.entries((value ?? {}) as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));
}

function checkCcusage(expected: Expected): Check {
  return (stdout) => {
    let report: { session?: unknown[]; totals?: Record<string, unknown> };
    try {
      report = JSON.parse(stdout);
    } catch {
      return `not JSON: ${stdout.slice(0, 200)}`;
    }
    const problems: string[] = [];
    if (report.session?.length !== expected.sessions) problems.push(`sessions ${report.session?.length}`);
    const totals = report.totals ?? {};
    for (const [field, want] of [
      ['inputTokens', expected.inputTokens],
      ['outputTokens', expected.outputTokens],
      ['cacheReadTokens', expected.cacheReadTokens],
      ['totalTokens', expected.totalTokens],
    ] as const)
      if (totals[field] !== want) problems.push(`${field} ${totals[field]} ≠ ${want}`);
    return problems.length ? problems.join('; ') : undefined;
  };
}

/** A Bun to run: BUN, `bun` on the PATH, else a pinned one fetched from npm into bench/.data/tools. */
function findBun(): string | undefined {
  if (process.env.BUN) return process.env.BUN;
  if (spawnSync('bun', ['--version']).status === 0) return 'bun';
  const bun = join(TOOLS, 'node_modules', '.bin', 'bun');
  if (!existsSync(bun)) fetchTool(`bun@${BUN_VERSION}`);
  return spawnSync(bun, ['--version']).status === 0 ? bun : undefined;
}

/** A pinned bench tool from npm, into bench/.data/tools. */
function fetchTool(spec: string): void {
  mkdirSync(TOOLS, { recursive: true });
  if (!existsSync(join(TOOLS, 'package.json'))) writeFileSync(join(TOOLS, 'package.json'), '{"private":true}\n');
  process.stderr.write(`bench: fetching ${spec} into bench/.data/tools\n`);
  spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', spec], { cwd: TOOLS, stdio: 'inherit' });
}

type Runner = {
  name: string;
  tool: 'ours' | 'ours-2' | 'ours-typed' | 'ccusage';
  runtime: string;
  command: string;
  args: string[];
  check: Check;
  ms: number[];
  cpuMs: number[];
  /** The PATH of this runner's runs, when not the bench's own. */
  path?: string;
};

/** GNU time gives the CPU a run used, its children's included (ccusage's launcher waits for its native binary). */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function runOnce(runner: Runner, env: Record<string, string>): { ms: number; cpuMs: number | undefined } {
  const cpuFile = join(env.TMPDIR!, 'cpu.txt');
  const [command, args] = TIME ? [TIME, ['-f', '%U %S', '-o', cpuFile, runner.command, ...runner.args]] : [runner.command, runner.args];
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, {
    env: runner.path ? { ...env, PATH: runner.path } : env,
    encoding: 'utf8',
    maxBuffer: 64 * MiB,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${runner.name} exited ${result.status}: ${result.stderr}`);
  const problem = runner.check(result.stdout);
  if (problem) throw new Error(`${runner.name} answered wrong: ${problem}`);
  const cpu = TIME ? readFileSync(cpuFile, 'utf8').trim().split(/\s+/).map(Number) : undefined;
  return { ms, cpuMs: cpu ? (cpu[0]! + cpu[1]!) * 1000 : undefined };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

if (!existsSync(CLI)) throw new Error('build first: npm run build');
if (!existsSync(CCUSAGE)) fetchTool(`ccusage@${CCUSAGE_VERSION}`);
if (!existsSync(CCUSAGE)) throw new Error(`ccusage@${CCUSAGE_VERSION} could not be fetched into ${TOOLS}`);
process.stderr.write(`bench: generating or reusing the corpus in ${CORPUS}\n`);
const expected = ensureCorpus();
const files = sessionFiles();
const naive = naiveReplay(files);
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME,
  TMPDIR: join(DATA, 'tmp'),
  NO_COLOR: '1',
  CLAUDE_CONFIG_DIR: join(HOME, '.claude'),
};
mkdirSync(env.TMPDIR, { recursive: true });
// The default private state directory a user's hooks have made by the time they calibrate with replay: the CLI keeps
// its code cache there (written by the untimed warm-up run), as on such a machine.
const STATE = join(HOME, '.local', 'state', 'context-ceiling');
mkdirSync(STATE, { recursive: true, mode: 0o700 });
chmodSync(STATE, 0o700);
const bun = findBun();
/** The Bun's own path, and its version: the row as typed needs one the CLI hands over to (BUN_FLOOR or newer). */
const bunPath = bun && (bun.includes('/') ? resolve(bun) : findOnPath(bun, process.env.PATH));
const bunVersion = bun ? spawnSync(bun, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
/** The machine's Node hands the run over only where Bun outreads it (cli/replay-runtime.ts): a newer one keeps it. */
const handsOver = bunPath !== undefined && !bunTooOld(bunVersion) && bunOutreads(process.versions.node);
const ltsNode = findLtsNode(DATA);
/** The current LTS Node's column: a user installing Node today runs replay (and ccusage's launcher) with it. */
const LTS = `Node ${NODE_LTS_VERSION.split('.')[0]}`;
const runtimes: Array<[string, string]> = [
  ['Node', process.execPath],
  ...(ltsNode ? [[LTS, ltsNode] as [string, string]] : []),
  ...(bun ? [['Bun', bun] as [string, string]] : []),
];
const runners: Runner[] = runtimes.flatMap(([runtime, command]) => [
  {
    name: `replay (${runtime})`,
    tool: 'ours',
    runtime,
    command,
    // Node's row is Node's: --runtime node, whatever Bun the PATH holds (the row as typed below hands over).
    args: [CLI, 'replay', '--json', ...(runtime !== 'Bun' ? ['--runtime', 'node'] : [])],
    check: checkOurs(expected, naive),
    ms: [],
    cpuMs: [],
  },
  {
    // Two threads whatever the host's load: what both CPUs give when they are free.
    name: `replay --jobs 2 (${runtime})`,
    tool: 'ours-2',
    runtime,
    command,
    args: [CLI, 'replay', '--json', '--jobs', '2', ...(runtime !== 'Bun' ? ['--runtime', 'node'] : [])],
    check: checkOurs(expected, naive, 2),
    ms: [],
    cpuMs: [],
  },
  {
    name: `ccusage (${runtime})`,
    tool: 'ccusage',
    runtime,
    command,
    args: [CCUSAGE, 'session', '--json', '--offline'],
    check: checkCcusage(expected),
    ms: [],
    cpuMs: [],
  },
]);
if (handsOver && bunPath)
  // What the user types (`context-ceiling replay`, the bin is Node) where Bun is installed: Node starts, finds Bun
  // on the PATH and hands it the run. Timed whole, the handover included; its answer is checked as Node's is.
  runners.push({
    name: 'replay as typed (Node, Bun on the PATH)',
    tool: 'ours-typed',
    runtime: 'Node',
    command: process.execPath,
    args: [CLI, 'replay', '--json'],
    check: checkOurs(expected, naive),
    ms: [],
    cpuMs: [],
    path: `${dirname(bunPath)}:${env.PATH}`,
  });
process.stderr.write(`bench: ${files.length} sessions, ${(expected.bytes / MiB).toFixed(0)} MiB; warming the page cache\n`);
const loadBefore = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
for (const runner of runners) runOnce(runner, env); // warm-up: page cache, ccusage's native binary, Bun's cache
for (let round = 0; round < ROUNDS; round++) {
  // Rotate the order every round so no runner always follows the same one.
  for (let i = 0; i < runners.length; i++) {
    const runner = runners[(round + i) % runners.length]!;
    const { ms, cpuMs } = runOnce(runner, env);
    runner.ms.push(ms);
    if (cpuMs !== undefined) runner.cpuMs.push(cpuMs);
  }
}
const ratio = (runtime: string, tool: Runner['tool'] = 'ours') => {
  const ours = runners.find((r) => r.tool === tool && r.runtime === runtime)!;
  const theirs = runners.find((r) => r.tool === 'ccusage' && r.runtime === runtime)!;
  return median(ours.ms.map((ms, i) => ms / theirs.ms[i]!));
};
const cell = (tool: Runner['tool'], runtime: string) => {
  const r = runners.find((x) => x.tool === tool && x.runtime === runtime);
  if (!r) return 'n/a';
  const cpu = r.cpuMs.length ? `; CPU ${median(r.cpuMs).toFixed(0)}` : '';
  return `${median(r.ms).toFixed(0)} (${Math.min(...r.ms).toFixed(0)}–${Math.max(...r.ms).toFixed(0)})${cpu}`;
};
const version = (command: string) => spawnSync(command, ['--version'], { encoding: 'utf8' }).stdout.trim();
const date = new Date().toISOString().slice(0, 10);
/** The table's columns: each runtime the runs used (the machine's Node first). */
const columns = runtimes.map(([runtime]) => runtime);
const pass = (r: number) => (r <= 1 ? '✓' : '✗');
const table = `### ${date}

Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}${ltsNode ? ` and v${NODE_LTS_VERSION} (the current LTS line, from the npm registry)` : ''}${bun ? `, Bun ${version(bun)}` : ', no Bun'}; ccusage ${JSON.parse(readFileSync(join(TOOLS, 'node_modules', 'ccusage', 'package.json'), 'utf8')).version}.
Corpus: ${files.length} sessions, ${(expected.bytes / MiB).toFixed(0)} MiB. ${ROUNDS} rounds, order rotated each round; wall ms, median (min–max), and the
median CPU ms (user + system, children included); "replay / ccusage" is the median of each round's wall-time ratio.
replay (threads as it chose them) read with ${[...oursThreads].join(', ')} thread(s). Load average before the runs: ${loadBefore}, after: ${loadavg()
  .map((l) => l.toFixed(1))
  .join(' ')}.

| command (timed: the whole process, warm page cache) | ${columns.map((runtime) => `${runtime} ms`).join(' | ')} |
|---|${columns.map(() => '---|').join('')}
| \`context-ceiling replay --json\` (Node: \`--runtime node\`; checked: sessions, compactions, peak, gated calls by tool per ceiling = the generator's; summary = a naive every-line replay) | ${columns.map((runtime) => `**${cell('ours', runtime)}**`).join(' | ')} |
| \`context-ceiling replay --json --jobs 2\` (checked the same way) | ${columns.map((runtime) => cell('ours-2', runtime)).join(' | ')} |
| \`context-ceiling replay --json\` as typed: \`node cli.cjs\` with Bun ${BUN_FLOOR}+ on the PATH, which it hands the run to (handover timed; checked the same way) | ${handsOver ? `**${cell('ours-typed', 'Node')}**` : `n/a (${!bun ? 'no Bun' : bunTooOld(bunVersion) ? `Bun ${bunVersion} is older than ${BUN_FLOOR}` : `Node ${process.versions.node} keeps the run`})`} | ${columns
  .slice(1)
  .map(() => '—')
  .join(' | ')} |
| \`ccusage session --json --offline\` (checked: 40 sessions; input, output, cache-read and total tokens = the generator's) | ${columns.map((runtime) => cell('ccusage', runtime)).join(' | ')} |
| replay / ccusage | ${columns.map((runtime) => `**${ratio(runtime).toFixed(2)}×** ${pass(ratio(runtime))}`).join(' | ')} |
| replay --jobs 2 / ccusage | ${columns.map((runtime) => `${ratio(runtime, 'ours-2').toFixed(2)}×`).join(' | ')} |
| replay as typed (Bun on the PATH) / ccusage under Node (as \`ccusage\` typed runs) | ${handsOver ? `**${ratio('Node', 'ours-typed').toFixed(2)}×** ${pass(ratio('Node', 'ours-typed'))}` : 'n/a'} | ${columns
  .slice(1)
  .map(() => '—')
  .join(' | ')} |
`;
const path = join(ROOT, 'bench', 'RESULTS.md');
const current = readFileSync(path, 'utf8');
const header = `## Replay against ccusage

Generated by \`npm run bench:replay\` (bench/replay.ts). The corpus is laid out as \`~/.claude/projects\`
(8 projects) and generated once into bench/.data: each session ≥ ${SESSION_MIB} MiB of turns (prompt, an
8 KB attachment every third turn, an assistant turn with its usage and a tool call — every 9th a Skill,
every 13th an Agent, followed by six \`progress\` decoys nesting the subagent's usage — its result, 3–33 KB,
every 60th 512 KiB, bookkeeping records; keys in Claude Code's order, a user record's type before its message),
compacted near 80 % of the model's 200K window. Both tools run as
a user runs them (\`HOME\` and \`CLAUDE_CONFIG_DIR\` point at the corpus, whose home has the private state directory
a user's hooks make, where our CLI keeps its code cache) under the machine's Node, the current LTS Node (fetched from the npm
registry: what a user installing Node today runs) and Bun, and ours as typed
(\`node cli.cjs\` with Bun on the PATH: the Node CLI hands the run to Bun, and that handover is timed); every
run's answer is checked, and a wrong one stops the bench. Target: replay / ccusage ≤ 1.
`;
// Each run appends its dated table under the section's header after the one before it (the two read side by side);
// older tables move to bench/HISTORY.md, oldest first.
const begin = '<!-- replay-ccusage:begin -->';
const end = '<!-- replay-ccusage:end -->';
const at = current.indexOf(begin);
const firstRun = at === -1 ? -1 : current.indexOf('\n### ', at);
const runs = firstRun === -1 || firstRun > current.indexOf(end) ? '' : current.slice(firstRun + 1, current.indexOf(end)).trim();
const tables = runs.startsWith('### ') ? runs.split(/\n(?=### )/).map((run) => run.trim()) : [];
appendToHistory(
  join(ROOT, 'bench', 'HISTORY.md'),
  'replay-ccusage',
  '## Replay against ccusage: earlier tables',
  tables.slice(0, -1).join('\n\n'),
);
const body = `${header}\n${tables.length > 0 ? `${tables[tables.length - 1]}\n\n` : ''}${table}`;
writeSection(path, 'replay-ccusage', body);
const rates = throughput(files, expected.bytes);
const mark = (rate: number) => (rate >= 150 ? '✓' : '✗');
writeSection(
  path,
  'replay',
  `## Replay throughput

Generated by \`npm run bench:replay\` (bench/replay.ts) on ${date}, in one thread, in-process, on the corpus above.
Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (other work on the host slows this too).
Both build the same per-session timelines and judge ceilings ${CEILINGS.join(', ')} % with the guard's judgeCall; median of
three warm runs. Target ≥ 150 MB/s.

### ${date}

| reader | MiB/s | vs target |
|---|---|---|
| replay's scanner (1 MiB reads, records sniffed by top-level type, only those that may decide parsed) | **${rates.scanner.toFixed(0)}** | ${mark(rates.scanner)} |
| naive: readFileSync + split + JSON.parse every line (the baseline, no target) | ${rates.naive.toFixed(0)} | — |

The scanner is ${(rates.scanner / rates.naive).toFixed(1)}× the naive baseline.
`,
);
process.stderr.write(
  `${table}\nin-process: scanner ${rates.scanner.toFixed(0)} MiB/s, naive ${rates.naive.toFixed(0)} MiB/s\nbench: wrote bench/RESULTS.md\n`,
);
