/**
 * What the hook benches (bench/guard.ts, bench/bounded.ts) share: where the package is, and running one whole process
 * for its time, its peak memory or its answer.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The package root: a bench runs bundled from bench/.data/, so look upwards for package.json. */
export function findRoot(from: string): string {
  for (let dir = from; ; dir = resolve(dir, '..')) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dir === resolve(dir, '..')) return process.cwd();
  }
}

export const ROOT = findRoot(import.meta.dirname ?? process.cwd());
export const DATA = join(ROOT, 'bench', '.data');

/** Bun: BENCH_BUN, else the devDependency's binary, else one on the PATH; `BENCH_BUN=off` leaves the column out. */
export function findBun(): string | undefined {
  if (process.env.BENCH_BUN === 'off') return undefined;
  const candidates = [process.env.BENCH_BUN, join(ROOT, 'node_modules', '.bin', 'bun'), 'bun'].filter(Boolean) as string[];
  for (const candidate of candidates) if (spawnSync(candidate, ['--version'], { encoding: 'utf8' }).status === 0) return candidate;
  return undefined;
}

export type Run = { ms: number; status: number | null; stdout: string };

/** One whole process: its wall time, exit code and stdout (stderr dropped). */
export function runOnce(command: string, args: string[], input: string | undefined, env: NodeJS.ProcessEnv): Run {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { input, env, encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // A hook that exits before reading its input (EPIPE on our write) did not do its job: a wrong answer, not a crash.
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE')
    return { ms, status: result.status, stdout: `(exited before reading its input) ${result.stdout ?? ''}` };
  if (result.error) throw result.error;
  return { ms, status: result.status, stdout: result.stdout };
}

/** One whole process's peak resident memory, KiB (`/usr/bin/time -f %M`). */
export function peakKiB(command: string, args: string[], input: string | undefined, env: NodeJS.ProcessEnv): number {
  const result = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], {
    input,
    env,
    encoding: 'utf8',
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const lines = result.stderr.trim().split('\n');
  return Number(lines[lines.length - 1]);
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
