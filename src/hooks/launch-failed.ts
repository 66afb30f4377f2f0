/**
 * What the hook launcher does when it cannot run an entry (plugin/dist/launch-failed.cjs, loaded only then): a
 * name that is no entry is a wiring mistake (exit 1, one line); a known entry whose bundle did not load (a
 * half-updated runtime copy) lets everything through but says so, and leaves the last-error record, as does a
 * status line whose bundle did not load; under a Bun older than the one the suite passes with, Node runs the hook instead.
 */
import { spawnSync } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { join } from '../io/join-path.js';
import { BUN_FLOOR } from '../core/bun-floor.js';
import { ENV } from '../core/env-names.js';
import { isEntryName, NODE_HOOK, unknownEntryMessage } from '../core/hook-table.js';
import { homeDirectory } from '../io/home.js';
import { readRegularText } from '../io/read-safe.js';
import { STATUSLINE_FAILED } from '../core/statusline.js';
import { describeError, failureLine, packageVersion, STATUSLINE_EVENT, writeLastErrorIn } from '../io/last-error.js';
import { createStateDir, existingPrivateDir, resolveStateDir } from '../io/state-dir.js';
import { writeAll } from '../runtime/hook-io.js';

/** Never throws. */
export function launchFailed(name: string | undefined, error: unknown): void {
  try {
    if (!isEntryName(name)) {
      // Claude Code shows exit 1 as a non-blocking hook error.
      writeAll(2, unknownEntryMessage(name));
      process.exitCode = 1;
      return;
    }
    failedToLoad(name, error);
  } catch {
    process.exitCode = 0;
  }
}

/**
 * The hook command found a Bun older than BUN_FLOOR: run the same launcher with Node, as the command does where
 * Bun is absent, on the same stdin, stdout and stderr, and end as that run ends. A Node that cannot be run is a
 * launch that failed: everything is let through, and said so.
 */
export function runUnderNode(name: string | undefined, bundleDir: string, bunVersion: string): void {
  try {
    const run = nodeRuns(join(bundleDir, 'hook.cjs'), name === undefined ? [] : [name], bunVersion, 'the hook');
    process.exitCode = run.status ?? 0; // killed by a signal: let everything through
  } catch (error) {
    launchFailed(name, error);
  }
}

/** The same for the status line's launcher (statusline.cjs): a Node that cannot be run shows the status line's fallback. */
export function statusLineUnderNode(args: readonly string[], bundleDir: string, bunVersion: string): void {
  try {
    nodeRuns(join(bundleDir, 'statusline.cjs'), args, bunVersion, 'the status line');
    process.exitCode = 0; // a status line never fails
  } catch (error) {
    statusLineFailed(error);
  }
}

/** Node runs `script` as the command's Node branch would, on this process's stdio. Throws when Node cannot be run. */
function nodeRuns(script: string, args: readonly string[], bunVersion: string, what: string): ReturnType<typeof spawnSync> {
  const [node, ...flags] = NODE_HOOK.split(' ') as [string, ...string[]];
  const run = spawnSync(node, [...flags, script, ...args], { stdio: 'inherit' });
  if (run.error) throw new Error(`Bun ${bunVersion} is older than ${BUN_FLOOR} and Node could not run ${what}: ${run.error.message}`);
  return run;
}

/**
 * The status line's bundle (statusline-main.cjs) could not be loaded: what the status line itself shows when it
 * fails (its fallback line), one stderr line and the last-error record, as a hook's failed launch leaves. Never throws.
 */
export function statusLineFailed(error: unknown): void {
  try {
    writeAll(1, `${STATUSLINE_FAILED}\n`);
    failedToLoad(STATUSLINE_EVENT, error);
  } catch {
    process.exitCode = 0;
  }
}

/** The entry's bundle could not be loaded: one stderr line, and the last-error record where state is kept. */
function failedToLoad(name: string, error: unknown): void {
  const line = failureLine(name, describeError(error));
  try {
    const dir = privateDirMade(userPolicyStateDir() ?? defaultStateDir());
    if (dir) writeLastErrorIn(dir, { at: new Date().toISOString(), event: name, error: line.error, version: packageVersion() });
  } catch {
    // nowhere private to keep it: the stderr line still says it
  }
  writeAll(2, line.stderr);
  process.exitCode = 0;
}

/**
 * The state directory the user's own policy names (~/.claude/context-ceiling.json `stateDir`), when it exists
 * and is private: where `status` and `doctor` will look. Read as plain JSON: the policy parser may be what is
 * missing.
 */
function userPolicyStateDir(): string | undefined {
  try {
    // As the policy reader reads it (io/config.ts): a regular file, never a blocking read of a FIFO, at most 256 KiB.
    const raw = readRegularText(join(homeDirectory(), '.claude', 'context-ceiling.json'), 256 * 1024);
    if (raw === undefined) return undefined;
    const stated = (JSON.parse(raw) as { stateDir?: unknown }).stateDir;
    return typeof stated === 'string' && isAbsolute(stated) ? stated : undefined;
  } catch {
    return undefined;
  }
}

/** The default state directory, when no path variable (perhaps the repository's) names another. */
function defaultStateDir(): string | undefined {
  const env = process.env;
  if (env[ENV.stateDir]) return undefined;
  return resolveStateDir({ policy: { stateDir: undefined }, env, home: homeDirectory() });
}

/** `dir`, made 0700 when missing (as the hooks make it: io/state-dir.ts), when it is private and ours. */
function privateDirMade(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  try {
    createStateDir(dir);
  } catch {
    return undefined; // a parent missing outside the home: not ours to create
  }
  return existingPrivateDir(dir);
}
