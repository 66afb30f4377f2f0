/**
 * Replaying many session files: each file is read and judged on its own (replay-file.ts), in this thread
 * or spread over this thread and worker threads running the replay worker's own bundle.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type * as WorkerThreads from 'node:worker_threads';
import { cliMessage } from './messages.js';
import { type FileReplay, REPLAY_WORKER_ROLE, type ReplaySetup, type ReplayWorkerData, replayFile } from './replay-file.js';

export type { FileReplay, ReplaySetup } from './replay-file.js';

/**
 * Below this much transcript, another thread costs more than it saves. A worker runs its own small bundle
 * (replay-worker.cjs), so starting one costs about a quarter of a Node start; what remains is its own cold
 * start of the scan code, which its share of the files pays back from 40-60 MiB (instruction counts and CPU
 * time, bench/RESULTS.md "Where replay's time goes"); twice that, for a margin.
 */
const PARALLEL_MIN_BYTES = 128 * 1024 * 1024;
/** More workers than this only add start-up: the scan is bound by memory bandwidth long before. */
const MAX_JOBS = 4;

/**
 * The CPUs one reading thread keeps busy. Its JavaScript runs on one; the runtime's helper threads (garbage
 * collection, compiling) and the kernel's copies from the page cache keep most of another busy: one thread over
 * 401 MiB used 1.3–1.5 CPU seconds a second of wall time, and pinned to one CPU took 1.30× as long (Node 26). On
 * a two-CPU machine a second thread then only competes with the first: 1.05–1.28× the wall time of one, at
 * 29–38 % more CPU, under Node 20, Node 26 and Bun (bench/RESULTS.md, 2026-11-28).
 */
const CPUS_PER_THREAD = 2;

/**
 * How many threads read files: `requested` (1 is this thread alone), else one per two CPUs the machine leaves
 * idle (`load`: CPUs busy with other work; on a busy machine another thread only adds its start-up), up to
 * MAX_JOBS, once there is enough to read.
 */
export function chooseJobs(
  requested: number | undefined,
  files: number,
  bytes: number,
  machine: { cpus: number; load: number } = { cpus: availableParallelism(), load: busyElsewhere() },
): number {
  if (requested !== undefined) return Math.max(1, Math.min(requested, files));
  if (files < 2 || bytes < PARALLEL_MIN_BYTES) return 1;
  const threads = Math.floor((machine.cpus - machine.load + 0.25) / CPUS_PER_THREAD);
  return Math.max(1, Math.min(threads, MAX_JOBS, files));
}

/**
 * Replay every file; the answers come back in file order and `done` is told each file's index as it
 * finishes. With `jobs` > 1, this thread and `jobs` − 1 workers running `workerBundle` (replay-worker.cjs)
 * take the next file from one shared counter, largest first, so no thread waits for another to hand it
 * work. A worker's own failure (a bug, not an unreadable file) rejects, as it would have thrown here.
 * `threads` says how many read.
 */
export async function replayFiles(
  files: ReadonlyArray<{ path: string; size: number }>,
  setup: ReplaySetup,
  jobs: number,
  workerBundle: string | undefined,
  done: (index: number) => void,
): Promise<{ results: FileReplay[]; threads: number }> {
  const results = new Array<FileReplay>(files.length);
  if (jobs <= 1 || workerBundle === undefined) {
    files.forEach((file, index) => {
      results[index] = replayFile(file.path, setup);
      done(index);
    });
    return { results, threads: 1 };
  }
  // Loaded only for workers: node:worker_threads brings Node's stream stack with it (~2.5 ms of a Node start, ~7 ms of Bun's).
  const { Worker } = require('node:worker_threads') as typeof WorkerThreads;
  const order = files.map((_, index) => index).sort((a, b) => files[b]!.size - files[a]!.size);
  const paths = files.map((file) => file.path);
  const next = new Int32Array(new SharedArrayBuffer(4));
  let finished = 0;
  let failure: unknown;
  const workers: Array<{ worker: WorkerThreads.Worker; exited: Promise<void> }> = [];
  for (let w = 1; w < jobs; w++) {
    let worker: WorkerThreads.Worker;
    try {
      const data: ReplayWorkerData = { role: REPLAY_WORKER_ROLE, setup, paths, order, next };
      worker = new Worker(workerBundle, { workerData: data, stdout: true, stderr: true });
    } catch {
      break; // no worker threads here (a runtime without them): the threads started read everything
    }
    const exited = new Promise<void>((resolve) => {
      worker.on('message', (message: { index: number; result: FileReplay }) => {
        results[message.index] = message.result;
        finished += 1;
        done(message.index);
      });
      worker.on('error', (error) => {
        failure ??= error;
      });
      worker.on('exit', () => resolve());
    });
    workers.push({ worker, exited });
  }
  try {
    for (let claimed = Atomics.add(next, 0, 1); claimed < order.length && failure === undefined; claimed = Atomics.add(next, 0, 1)) {
      const index = order[claimed]!;
      results[index] = replayFile(paths[index]!, setup);
      finished += 1;
      done(index);
      // Let the workers' answers in (and the progress they make show) between two files of this thread's.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } catch (error) {
    failure ??= error;
  }
  if (failure !== undefined) for (const { worker } of workers) void worker.terminate();
  await Promise.all(workers.map(({ exited }) => exited));
  if (failure !== undefined) throw failure;
  if (finished < files.length) throw new Error(cliMessage('replay.worker-stopped'));
  return { results, threads: 1 + workers.length };
}

/**
 * How many CPUs other work keeps busy right now: Linux's count of runnable tasks (/proc/loadavg, ourselves
 * left out), which a script that just ran replay before does not inflate the way the one-minute load average
 * does; elsewhere that average.
 */
export function busyElsewhere(procLoadavg = '/proc/loadavg'): number {
  try {
    const running = Number(readFileSync(procLoadavg, 'utf8').split(' ')[3]?.split('/')[0]);
    if (Number.isFinite(running)) return Math.max(0, running - 1);
  } catch {
    // not Linux: the load average below
  }
  return loadavg()[0] ?? 0;
}
