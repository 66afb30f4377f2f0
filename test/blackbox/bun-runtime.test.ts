/**
 * The hook command every route writes runs Bun where it is installed (issue 18 made that the default once the
 * whole suite passed under both). This runs every test of the hook suites that runs a hook (the `hook` tag: runHook
 * fails a test without it) again with every hook run by Bun (the pinned Bun of the devDependencies), and requires
 * each to pass and every hook to have run under Bun; the suites' other tests run no hook and would repeat the Node run. Three files test
 * Node itself and stay out (NODE_ONLY says why).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOK_NAMES } from '../../src/core/hook-table.js';
import { hookSuites, notPassed, runSuites, testsPerHook, testsWith } from '../helpers/hook-suites.js';
import { HOOK_TAG } from '../helpers/sandbox.js';

const NODE_ONLY: Record<string, string> = {
  'code-cache.test.ts': "V8's code cache, which only the launcher's Node path keeps (under Bun it is never read or written)",
  'hook-footprint.test.ts': "which of Node's built-in modules a hook loads (Node's own module list)",
  'hook-node-calls.test.ts': "which of Node's own functions a hook calls (a NODE_OPTIONS preload: Node's start-up cost)",
};

/** Fewer of a hook's tests than this under Bun means the log or the switch broke, not that Bun passed. */
const MIN_TESTS_PER_HOOK = 5;

const work = mkdtempSync(join(tmpdir(), 'cc-bun-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the hook suites with every hook run by Bun', () => {
  it('every test passes, and every hook ran under Bun', () => {
    const log = join(work, 'runs.log');
    const report = runSuites(
      hookSuites([...Object.keys(NODE_ONLY), 'standin.test.ts', 'bun-runtime.test.ts']),
      { CC_HOOK_RUNTIME: 'bun', CC_HOOK_RUNTIME_LOG: log },
      join(work, 'report.json'),
      { tag: HOOK_TAG },
    );
    // Only a non-root run may skip (the suites' real-mount cases need root, as CI has).
    const failed = notPassed(report, process.getuid?.() === 0, HOOK_TAG);
    expect(failed).toEqual([]);
    // About 300 tests run a hook (each case once: the bin's entry is held to hook.cjs in hook-entries.test.ts).
    expect(testsWith(report, 'passed').length).toBeGreaterThan(250);
    const few = [...testsPerHook(log, HOOK_NAMES)]
      .filter(([, tests]) => tests.size < MIN_TESTS_PER_HOOK)
      .map(([event, tests]) => `${event}: ${tests.size}`);
    expect(few).toEqual([]);
  }, 600_000);
});
