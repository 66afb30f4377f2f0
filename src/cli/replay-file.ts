/**
 * One session file replayed (scan → timeline → the session's window → analyzeSession, the guard's judgeCall
 * on every call), and the worker thread that replays files for `replay`: its own small bundle,
 * replay-worker.cjs, holds only this, so a worker starts without compiling the whole CLI.
 */
import type * as WorkerThreads from 'node:worker_threads';
import type { Policy } from '../core/policy.js';
import { analyzeSession, type SessionAnalysis, TimelineBuilder } from '../core/replay.js';
import type { WindowFacts } from '../core/window.js';
import { isFsError } from '../io/fs-error.js';
import { type FileScan, scanRecords } from '../io/replay-scan.js';
import { recordedSessionWindow } from '../window/session-window.js';

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

/** The worker's bundle, beside the CLI's (tsup.config.ts). */
export const REPLAY_WORKER_BUNDLE = 'replay-worker.cjs';

/** What the main thread puts in a worker's workerData: the files, the setup and the shared counter of the next file. */
export type ReplayWorkerData = { role: typeof REPLAY_WORKER_ROLE; setup: ReplaySetup; paths: string[]; order: number[]; next: Int32Array };

/** Marks a thread replayFiles started, so the bundle serves files only there. */
export const REPLAY_WORKER_ROLE = 'context-ceiling replay worker';

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

/**
 * In a worker replayFiles started: take the next file from the shared counter until none is left, posting
 * each answer with its index. False anywhere else (the main thread, a worker of another kind).
 */
export function serveReplayWorker(): boolean {
  // Loaded here, not at the top: node:worker_threads brings Node's stream stack with it (~2.5 ms of a Node start,
  // ~7 ms of Bun's), which a replay in one thread never needs.
  const { isMainThread, parentPort, workerData } = require('node:worker_threads') as typeof WorkerThreads;
  if (isMainThread || parentPort === null || workerData?.role !== REPLAY_WORKER_ROLE) return false;
  const { setup, paths, order, next } = workerData as ReplayWorkerData;
  for (let claimed = Atomics.add(next, 0, 1); claimed < order.length; claimed = Atomics.add(next, 0, 1)) {
    const index = order[claimed]!;
    parentPort.postMessage({ index, result: replayFile(paths[index]!, setup) });
  }
  // Nothing left: with no listener on its port, the worker's thread ends once its answers are out.
  return true;
}
