/**
 * A test must fail when the product breaks. Every hook fails open, so a crashed hook is silent: this runs
 * the hook suites again with every hook replaced by a silent stand-in (test/helpers/standin.sh) and
 * counts, per hook, the tests that ran it and still passed. At most 2 may (a test whose right answer is
 * silence states the reason of its verdict, which a dead hook cannot).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOK_NAMES } from '../../src/core/hook-table.js';
import { ROOT } from '../helpers/sandbox.js';

/** The most tests of one hook that may pass against a dead one. */
const MAX_PASSING = 2;

const work = mkdtempSync(join(tmpdir(), 'cc-standin-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The suites that run hooks as Claude Code does (through runHook), this file aside. */
function hookSuites(): string[] {
  return ['blackbox', 'hardening'].flatMap((dir) =>
    readdirSync(join(ROOT, 'test', dir))
      .filter((name) => name.endsWith('.test.ts') && name !== 'standin.test.ts')
      .map((name) => join('test', dir, name))
      .filter((path) => /\b(runHook|describeEachEntry|hookEvents)\(/.test(readFileSync(join(ROOT, path), 'utf8'))),
  );
}

type AssertionResult = { ancestorTitles: string[]; title: string; status: string };
type Report = { testResults: Array<{ name: string; assertionResults: AssertionResult[] }> };

describe('with every hook replaced by a silent stand-in', () => {
  it(`at most ${MAX_PASSING} of each hook's black-box tests still pass`, () => {
    const log = join(work, 'standin.log');
    const output = join(work, 'report.json');
    try {
      execFileSync(
        process.execPath,
        [
          join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
          'run',
          '--project',
          'package',
          '--reporter=json',
          `--outputFile=${output}`,
          ...hookSuites(),
        ],
        {
          cwd: ROOT,
          env: { ...process.env, CC_STANDIN: 'all', CC_STANDIN_LOG: log, CC_SKIP_PACK: '1' },
          stdio: 'ignore',
        },
      );
    } catch {
      // most tests fail against the stand-in: that is the point
    }
    expect(existsSync(output), 'the stand-in run wrote no report').toBe(true);
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    const passed = new Set(
      report.testResults.flatMap((file) =>
        file.assertionResults
          .filter((test) => test.status === 'passed')
          .map((test) => `${file.name}\t${[...test.ancestorTitles, test.title].join(' > ')}`),
      ),
    );
    const ran = new Map<string, Set<string>>(HOOK_NAMES.map((name) => [name, new Set()]));
    for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
      const [event, path, name] = line.split('\t');
      ran.get(event!)?.add(`${path}\t${name}`);
    }
    const counts = [...ran].map(([event, tests]) => ({ event, ran: tests.size, still: [...tests].filter((test) => passed.has(test)) }));
    const weak = counts.filter((c) => c.ran === 0 || c.still.length > MAX_PASSING);
    expect(weak.map((c) => `${c.event}: ${c.ran} ran, ${c.still.length} passed against a dead hook:\n  ${c.still.join('\n  ')}`)).toEqual(
      [],
    );
  }, 600_000);
});
