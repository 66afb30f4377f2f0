/**
 * `replay` runs with Bun where it is installed and reads faster than the Node that was started: the bin (cli.ts)
 * asks here before it loads the CLI, and a Node older than 22 hands the whole run to the `bun` on the PATH (the
 * floor's or newer: core/bun-floor.ts); it runs the replay itself when there is none, when asked (`--runtime node`),
 * under a newer Node, or when that Bun does not take the run. Kept to what this needs: it is all the bin loads before
 * the handover.
 */
import type * as ChildProcess from 'node:child_process';
import { closeSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import { bunTooOld } from '../core/bun-floor.js';
import { runningBundle } from '../io/bundle-dir.js';
import { findOnPath } from '../io/on-path.js';
import { asksHelp, takeNoColor } from './command-line.js';

/** Set in the environment of the run handed to Bun: that run never hands over again, and says it took the run. */
export const REPLAY_HANDOVER_ENV = 'CONTEXT_CEILING_REPLAY_HANDOVER';
/** The descriptor the run handed over writes TOOK_RUN to once it runs our code, under a Bun new enough. */
const HANDOVER_FD = 3;
const TOOK_RUN = 'replay';

/**
 * From this Node on, replay reads a history about as fast as under Bun, and a handover (Bun started after a Node
 * start) only costs: measured pair by pair over 401 MiB, Node's own run over the run handed to Bun took 1.09× under
 * Node 20, 0.98× under 22, 0.90× under 24 and 26 (bench/HISTORY.md, 2026-11-27).
 */
export const NODE_AS_FAST_AS_BUN = 22;

/** Whether Bun reads a history faster than the Node `version` (process.versions.node) by more than a handover costs. */
export function bunOutreads(version: string): boolean {
  const major = Number.parseInt(version, 10);
  return Number.isFinite(major) && major < NODE_AS_FAST_AS_BUN;
}

/** What `--runtime` asks for (the first one before `--`): `auto` when absent; a wrong value is replay's usage error. */
export function runtimeAsked(args: readonly string[]): string {
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const arg = args[i]!;
    if (arg === '--runtime') return args[i + 1] ?? '';
    if (arg.startsWith('--runtime=')) return arg.slice('--runtime='.length);
  }
  return 'auto';
}

/**
 * Where the command line (`argv`, as the bin got it) is a replay's: the exit code to end with, when Bun ran it or
 * (in a run handed over, under a Bun older than the floor) Node is to; undefined when this process runs the command.
 */
export function settleReplayRuntime(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): number | undefined {
  const [name, ...args] = takeNoColor(argv).args;
  if (name !== 'replay' || asksHelp(args)) return undefined;
  if (env[REPLAY_HANDOVER_ENV] !== undefined) return takeHandedOverRun() ? undefined : 0;
  return replayUnderBun(argv, args, env);
}

/**
 * Run the CLI with Bun, on the same arguments, stdin, stdout and stderr: the exit code of that run, or undefined
 * when Node is to run it here (Node asked for, a Node as fast as Bun, no `bun` on the PATH, already Bun, not the
 * built CLI, or a Bun that could not start or is older than the floor: it says so by never writing TOOK_RUN, and has
 * written nothing else). Never throws.
 */
function replayUnderBun(
  argv: readonly string[],
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): number | undefined {
  try {
    if (process.versions.bun !== undefined || runtimeAsked(args) !== 'auto' || !bunOutreads(process.versions.node)) return undefined;
    const cli = runningBundle();
    const bun = cli && findOnPath('bun', env.PATH);
    if (!cli || !bun) return undefined;
    // Required only here: node:child_process brings streams, net and dgram with it (~9 % of a Node start, measured),
    // which every other command the bin runs would pay for nothing.
    const { spawnSync } = require('node:child_process') as typeof ChildProcess;
    const run = spawnSync(bun, [cli, ...argv], {
      stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
      env: { ...env, [REPLAY_HANDOVER_ENV]: '1' },
    });
    if (run.error || String(run.output?.[HANDOVER_FD] ?? '') !== TOOK_RUN) return undefined;
    if (run.status !== null) return run.status;
    return 128 + (run.signal ? (constants.signals[run.signal] ?? 0) : 0); // as a shell reports a run a signal ended
  } catch {
    return undefined;
  }
}

/**
 * In the run handed over: true when it is to go on, and then the Node that handed it over has been told; false
 * under a Bun older than the floor, which ends at once having written nothing, so that Node runs it instead.
 */
function takeHandedOverRun(): boolean {
  const bun = process.versions.bun;
  if (bun !== undefined && bunTooOld(bun)) return false;
  try {
    writeSync(HANDOVER_FD, TOOK_RUN);
    closeSync(HANDOVER_FD);
  } catch {
    // no Node waiting on it (the variable set by hand): nothing to tell
  }
  return true;
}
