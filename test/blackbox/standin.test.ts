/**
 * A test must fail when the product breaks. Every hook fails open, so a crashed hook is silent: this runs
 * the hook suites' tests that run a hook (the `hook` tag) again with every hook replaced by a silent stand-in
 * (test/helpers/standin.sh) and counts, per hook, the tests that ran it and still passed. At most 2 may (a test whose right answer is
 * silence states the reason of its verdict, which a dead hook cannot).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOK_NAMES } from '../../src/core/hook-table.js';
import { hookSuites, runSuites, testsPerHook, testsWith } from '../helpers/hook-suites.js';
import { HOOK_TAG } from '../helpers/sandbox.js';

/** The most tests of one hook that may pass against a dead one. */
const MAX_PASSING = 2;

const work = mkdtempSync(join(tmpdir(), 'cc-standin-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('with every hook replaced by a silent stand-in', () => {
  it(`at most ${MAX_PASSING} of each hook's black-box tests still pass`, () => {
    const log = join(work, 'standin.log');
    // Most tests fail against the stand-in: that is the point.
    const report = runSuites(
      hookSuites(['standin.test.ts', 'bun-runtime.test.ts']),
      { CC_STANDIN: 'all', CC_STANDIN_LOG: log },
      join(work, 'report.json'),
      { tag: HOOK_TAG },
    );
    const passed = new Set(testsWith(report, 'passed'));
    const ran = testsPerHook(log, HOOK_NAMES);
    const counts = [...ran].map(([event, tests]) => ({ event, ran: tests.size, still: [...tests].filter((test) => passed.has(test)) }));
    const weak = counts.filter((c) => c.ran === 0 || c.still.length > MAX_PASSING);
    expect(weak.map((c) => `${c.event}: ${c.ran} ran, ${c.still.length} passed against a dead hook:\n  ${c.still.join('\n  ')}`)).toEqual(
      [],
    );
  }, 600_000);
});
