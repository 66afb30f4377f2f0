/**
 * Guard cost benchmark: wall time and peak memory of one PreToolUse run on
 * transcripts of 1 KB, 10 MB, 100 MB and 1 GB with multi-megabyte lines, next
 * to `node -e 0` and the seed ADR's `tail -n 400 | jq` approach, all in one
 * run and compared as ratios. Writes bench/RESULTS.md.
 *
 *   npm run bench            (BENCH_RUNS=30 BENCH_SIZES=1KB,10MB,100MB,1GB)
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { aTranscript } from '../src/samples/transcript-builder.js';
import { writeSection } from './results.js';

/** The package root: this file runs bundled from bench/.data/, so look upwards for package.json. */
const ROOT = findRoot(import.meta.dirname ?? process.cwd());
const DATA = join(ROOT, 'bench', '.data');
const HOOK = join(ROOT, 'plugin', 'dist', 'hook.cjs');
const SEED = join(ROOT, 'bench', 'seed-guard.sh');
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const SEED_RUNS = Number(process.env.BENCH_SEED_RUNS ?? 5);
const MiB = 1024 * 1024;
const SIZES: Record<string, number> = { '1KB': 1024, '10MB': 10 * MiB, '100MB': 100 * MiB, '1GB': 1024 * MiB };
const chosen = (process.env.BENCH_SIZES ?? Object.keys(SIZES).join(',')).split(',');
/** Bump when the generated shape changes, so stale files are rebuilt. */
const SHAPE = 'v3';

/**
 * One realistic turn: prompt, attachments, a tool call, its result and the
 * bookkeeping records. Every 8th turn's result is 1–4 MiB (a big file read).
 */
function turn(index: number, bigAllowed: boolean): string {
  const big = bigAllowed && index % 8 === 7;
  const result = big ? (1 + (index % 4)) * MiB : 2_000 + ((index * 7919) % 40_000);
  return aTranscript()
    .user(`step ${index}`)
    .attachment(13_000)
    .assistant({
      cacheRead: 20_000 + (index % 50) * 1_000,
      cacheCreation: 1_000,
      toolUse: { name: 'Read', input: { file_path: `src/f${index}.ts` } },
    })
    .toolResult(result)
    .progress({ cacheRead: 150_000 })
    .noise()
    .toString();
}

const CALL_ID = 'toolu_bench_call';

/** The end every file shares: the newest usage sits behind a 4 MiB tool result, the worst common case. */
function tail(): string {
  // The newest turn makes the call being judged (its tool_use id is the hook input's), so the guard never waits.
  return aTranscript()
    .user('last step')
    .assistant({ cacheRead: 59_000, cacheCreation: 1_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' }, id: CALL_ID } })
    .toolResult(4 * MiB)
    .attachment(13_000)
    .noise()
    .toString();
}

function findRoot(from: string): string {
  for (let dir = from; ; dir = resolve(dir, '..')) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dir === resolve(dir, '..')) return process.cwd();
  }
}

function ensureTranscript(name: string, size: number): string {
  mkdirSync(DATA, { recursive: true });
  const path = join(DATA, `${name}-${SHAPE}.jsonl`);
  if (existsSync(path)) return path;
  const fd = openSync(`${path}.part`, 'w');
  let written = 0;
  const end =
    size >= 10 * MiB
      ? tail()
      : aTranscript()
          .user('hi')
          .assistant({ cacheRead: 60_000 - 5, toolUse: { name: 'Skill', input: { skill: 'deep-dive' }, id: CALL_ID } })
          .toString();
  for (let i = 0; size >= 10 * MiB; i++) {
    const chunk = turn(i, size - written > 6 * MiB);
    if (written + chunk.length + end.length > size) break;
    written += writeSync(fd, chunk);
  }
  writeSync(fd, end);
  closeSync(fd);
  spawnSync('mv', [`${path}.part`, path]);
  return path;
}

type Sample = { ms: number[]; peakKiB: number[] };

function timeOnce(command: string, args: string[], input: string | undefined, env: NodeJS.ProcessEnv): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { input, env, stdio: ['pipe', 'ignore', 'ignore'] });
  if (result.error) throw result.error;
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function peakOnce(command: string, args: string[], input: string | undefined, env: NodeJS.ProcessEnv): number {
  const result = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], {
    input,
    env,
    encoding: 'utf8',
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const lines = result.stderr.trim().split('\n');
  return Number(lines[lines.length - 1]);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function main(): void {
  if (!existsSync(HOOK)) throw new Error('plugin/dist/hook.cjs is missing: run npm run build first');
  const state = join(DATA, 'state');
  const env = { PATH: process.env.PATH ?? '', HOME: DATA, TMPDIR: DATA, DEV_TEAM_CONTEXT_STATE_DIR: state };
  const rows: string[] = [];
  const verdicts: string[] = [];
  for (const name of chosen) {
    const size = SIZES[name];
    if (!size) throw new Error(`unknown size ${name}`);
    process.stderr.write(`bench: preparing ${name} transcript\n`);
    const transcript = ensureTranscript(name, size);
    const actual = statSync(transcript).size;
    const input = JSON.stringify({
      session_id: `bench-${name}`,
      transcript_path: transcript,
      cwd: DATA,
      hook_event_name: 'PreToolUse',
      tool_name: 'Skill',
      tool_input: { skill: 'deep-dive' },
      tool_use_id: CALL_ID,
    });
    // Strict mode blocks are never deduplicated, so this shows the measured number on every bench run.
    const check = spawnSync(process.execPath, [HOOK, 'pre-tool-use'], {
      input,
      env: { ...env, DEV_TEAM_CONTEXT_CEILING_PCT: '25', DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '200000' },
      encoding: 'utf8',
    });
    verdicts.push(`${name}: ${check.stderr.trim() || '(silent)'}`);
    const commands = {
      bare: { command: process.execPath, args: ['-e', '0'], input: undefined as string | undefined },
      guard: { command: process.execPath, args: [HOOK, 'pre-tool-use'], input },
      seed: { command: 'bash', args: [SEED], input },
    };
    const samples: Record<keyof typeof commands, Sample> = {
      bare: { ms: [], peakKiB: [] },
      guard: { ms: [], peakKiB: [] },
      seed: { ms: [], peakKiB: [] },
    };
    process.stderr.write(`bench: ${name}: ${RUNS} interleaved runs\n`);
    for (let i = 0; i < RUNS; i++) {
      for (const key of ['bare', 'guard', 'seed'] as const) {
        if (key === 'seed' && i >= SEED_RUNS) continue;
        const { command, args, input: stdin } = commands[key];
        samples[key].ms.push(timeOnce(command, args, stdin, env));
      }
    }
    for (let i = 0; i < 5; i++) {
      for (const key of ['bare', 'guard', 'seed'] as const) {
        const { command, args, input: stdin } = commands[key];
        samples[key].peakKiB.push(peakOnce(command, args, stdin, env));
      }
    }
    const bare = median(samples.bare.ms);
    const guard = median(samples.guard.ms);
    const seed = median(samples.seed.ms);
    const bareKiB = median(samples.bare.peakKiB);
    const guardKiB = median(samples.guard.peakKiB);
    const seedKiB = median(samples.seed.peakKiB);
    // Each guard run is paired with the bare run just before it; the median of those ratios resists host noise.
    const ratio = median(samples.guard.ms.map((ms, i) => ms / samples.bare.ms[i]!));
    const memDelta = (guardKiB - bareKiB) / 1024;
    rows.push(
      `| ${name} | ${(actual / MiB).toFixed(1)} MiB | ${bare.toFixed(1)} | ${guard.toFixed(1)} | **${ratio.toFixed(2)}×** ${ratio <= 1.3 ? '✓' : '✗'} | ${seed.toFixed(1)} (${(seed / bare).toFixed(1)}×) | ${(bareKiB / 1024).toFixed(1)} | ${(guardKiB / 1024).toFixed(1)} | **+${memDelta.toFixed(1)}** ${memDelta <= 30 ? '✓' : '✗'} | ${(seedKiB / 1024).toFixed(1)} |`,
    );
    process.stderr.write(`${rows[rows.length - 1]}\n`);
  }
  const date = new Date().toISOString().slice(0, 10);
  const report = `## Guard start-up and memory

Generated by \`npm run bench\` (bench/guard.ts) on ${date}.
Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${process.platform}.

Each transcript is a run of realistic turns (prompt, 13 KB attachment,
tool call, tool result, \`progress\` decoy, bookkeeping records; every 8th
tool result is 1–4 MiB) ending with the newest usage **behind a 4 MiB tool
result**, so the guard must skip that line backwards to find it. The guard
runs the PreToolUse hook for a Skill call (\`node plugin/dist/hook.cjs pre-tool-use\`,
allow path). "seed" is the source ADR's approach, \`tail -n 400 | jq\`
(bench/seed-guard.sh). Wall times are medians of ${RUNS} interleaved runs
(${SEED_RUNS} for seed); "guard / bare" is the median of each guard run's
ratio to the bare run just before it (robust to a noisy host); peak RSS is the median of 5 runs of \`/usr/bin/time -f %M\`.
Targets: guard ≤ 1.3 × \`node -e 0\`, peak memory ≤ bare Node + 30 MB.

### ${date}

| transcript | size | \`node -e 0\` ms | guard ms | guard / bare | seed ms (× bare) | bare peak MB | guard peak MB | guard − bare MB | seed peak MB |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Guard verdicts at a 25% ceiling in strict mode (proves each run measured the newest usage, 60,005 tokens):

${verdicts.map((line) => `- ${line}`).join('\n')}
`;
  writeSection(join(ROOT, 'bench', 'RESULTS.md'), 'guard', report);
  process.stderr.write('bench: wrote bench/RESULTS.md\n');
}

main();
