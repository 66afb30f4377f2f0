/**
 * Replaying many session files: each file is read and judged on its own (scan → timeline → the
 * session's window → analyzeSession, the guard's judgeCall on every call), in this thread or spread
 * over worker threads running this same bundle. The main thread only sums what comes back.
 */
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Policy } from '../core/policy.js';
import { analyzeSession, type SessionAnalysis, TimelineBuilder } from '../core/replay.js';
import type { WindowFacts } from '../core/window.js';
import { scanRecords, type FileScan } from '../io/replay-scan.js';
import { recordedSessionWindow } from '../window/session-window.js';
import { isFsError } from './io.js';
import { cliMessage } from './messages.js';

/** Everything a file's replay needs besides the file: plain data, so a worker can be given it. */
export type ReplaySetup = {
  gated: string[];
  stated: Pick<WindowFacts, 'stated' | 'projectStated'>;
  env: Readonly<Record<string, string | undefined>>;
  ceilings: number[];
  policy: Policy;
};

/** One file's answer; undefined `analysis` when the file could not be read (counted, never fatal). */
export type FileReplay = { scan: FileScan; analysis: SessionAnalysis } | undefined;

/** Below this much transcript, starting workers costs more than it saves. */
const PARALLEL_MIN_BYTES = 48 * 1024 * 1024;
/** More workers than this only add start-up: the scan is bound by memory bandwidth long before. */
const MAX_JOBS = 4;
/** What the main thread sends a worker in its workerData, so the bundle knows to serve files rather than run the CLI. */
const WORKER_ROLE = 'context-ceiling replay worker';

export function replayFile(path: string, setup: ReplaySetup): FileReplay {
  const timeline = new TimelineBuilder(new Set(setup.gated));
  let scan: FileScan;
  try {
    scan = scanRecords(path, (record) => timeline.add(record));
  } catch (error) {
    if (isFsError(error)) return undefined;
    throw error;
  }
  const window = recordedSessionWindow(setup.stated, timeline, setup.env);
  return { scan, analysis: analyzeSession(timeline.events, { window, ceilings: setup.ceilings, policy: setup.policy }) };
}

/** How many threads read files: `requested` (1 is this thread alone), else by the CPUs and the work. */
export function chooseJobs(requested: number | undefined, files: number, bytes: number): number {
  if (requested !== undefined) return Math.max(1, Math.min(requested, files));
  if (files < 2 || bytes < PARALLEL_MIN_BYTES) return 1;
  return Math.max(1, Math.min(availableParallelism(), MAX_JOBS, files));
}

/**
 * Replay every file, in file order; `done` is told each file's index as it finishes. With `jobs` > 1 the
 * files go to workers running `bundle` (this CLI's own file), two in flight each; a worker's own failure
 * (a bug, not an unreadable file) rejects, as it would have thrown here. `threads` says how many read.
 */
export async function replayFiles(
  paths: readonly string[],
  setup: ReplaySetup,
  jobs: number,
  bundle: string | undefined,
  done: (index: number) => void,
): Promise<{ results: FileReplay[]; threads: number }> {
  if (jobs <= 1 || bundle === undefined) {
    const results = paths.map((path, index) => {
      const result = replayFile(path, setup);
      done(index);
      return result;
    });
    return { results, threads: 1 };
  }
  const results = new Array<FileReplay>(paths.length);
  let next = 0;
  let finished = 0;
  return new Promise((resolve, reject) => {
    const workers: Worker[] = [];
    const fail = (error: unknown) => {
      for (const worker of workers) void worker.terminate();
      reject(error);
    };
    const feed = (worker: Worker) => {
      if (next < paths.length) {
        worker.postMessage({ index: next, path: paths[next] });
        next += 1;
      }
    };
    for (let w = 0; w < jobs; w++) {
      const worker = new Worker(bundle, { workerData: { role: WORKER_ROLE, setup }, stdout: true, stderr: true });
      workers.push(worker);
      worker.on('message', (message: { index: number; result: FileReplay }) => {
        results[message.index] = message.result;
        finished += 1;
        done(message.index);
        feed(worker);
        if (finished === paths.length) {
          for (const each of workers) void each.terminate();
          resolve({ results, threads: jobs });
        }
      });
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (finished < paths.length) fail(new Error(cliMessage('replay.worker-stopped', { code })));
      });
      // Two files in flight, so a worker never waits for the next while its answer crosses over.
      feed(worker);
      feed(worker);
    }
  });
}

/** In a worker: true when this thread was started by replayFiles, after starting to serve files. */
export function serveReplayWorker(): boolean {
  if (isMainThread || parentPort === null || workerData?.role !== WORKER_ROLE) return false;
  const setup = workerData.setup as ReplaySetup;
  const port = parentPort;
  port.on('message', (message: { index: number; path: string }) => {
    port.postMessage({ index: message.index, result: replayFile(message.path, setup) });
  });
  return true;
}
