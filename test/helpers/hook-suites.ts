/**
 * The black-box suites that run hooks as Claude Code does (through runHook), run again in a child vitest
 * with other settings: with every hook replaced by a silent stand-in (standin.test.ts), or under Bun
 * (bun-runtime.test.ts). Each returns the child's JSON report.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { PACKED_TARBALL_ENV } from './pack-setup.js';
import { ROOT } from './sandbox.js';

/** The suites under test/blackbox and test/hardening that run a hook, `except` the named files. */
export function hookSuites(except: readonly string[]): string[] {
  return ['blackbox', 'hardening'].flatMap((dir) =>
    readdirSync(join(ROOT, 'test', dir))
      .filter((name) => name.endsWith('.test.ts') && !except.includes(name))
      .map((name) => join('test', dir, name))
      .filter((path) => /\b(runHook|describeGuard|hookEvents)\(/.test(readFileSync(join(ROOT, path), 'utf8'))),
  );
}

export type AssertionResult = { ancestorTitles: string[]; title: string; status: string; failureMessages?: string[]; tags?: string[] };
export type SuiteReport = { testResults: Array<{ name: string; assertionResults: AssertionResult[] }> };

/**
 * Run `suites` in a child vitest with `env` added; its report, whether tests failed or not. The package
 * project runs without the packed artifact (CC_SKIP_PACK: its suites never install it); the e2e project installs
 * this run's (pack-setup.ts), packed once. With `tag`, only the suites' tests that carry it run (the hook suites:
 * HOOK_TAG, which runHook fails a test without).
 */
export function runSuites(
  suites: readonly string[],
  env: Record<string, string>,
  output: string,
  { project = 'package', tag }: { project?: 'package' | 'e2e'; tag?: string } = {},
): SuiteReport {
  try {
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--project',
        project,
        ...(tag === undefined ? [] : [`--tags-filter=${tag}`]),
        '--reporter=json',
        `--outputFile=${output}`,
        ...suites,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, ...(project === 'package' ? { CC_SKIP_PACK: '1' } : { [PACKED_TARBALL_ENV]: inject('tarball') }), ...env },
        stdio: 'ignore',
      },
    );
  } catch {
    // a failing test makes vitest exit 1: the report says which
  }
  if (!existsSync(output)) throw new Error(`the child vitest wrote no report (${output})`);
  return JSON.parse(readFileSync(output, 'utf8')) as SuiteReport;
}

/**
 * Each test of the report that did not pass, with the first line of its failure; a skipped one counts only where
 * `skipsFail`. With `tag`, only the tests that carry it (the others were filtered out, not skipped).
 */
export function notPassed(report: SuiteReport, skipsFail: boolean, tag?: string): string[] {
  return report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => tag === undefined || test.tags?.includes(tag))
      .filter((test) => test.status !== 'passed' && (test.status !== 'skipped' || skipsFail))
      .map((test) => `${file.name} > ${test.title}: ${test.status} ${test.failureMessages?.[0]?.split('\n')[0] ?? ''}`),
  );
}

/** `file\ttitle > path` of each test in the report with that status. */
export function testsWith(report: SuiteReport, status: string): string[] {
  return report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === status)
      .map((test) => `${file.name}\t${[...test.ancestorTitles, test.title].join(' > ')}`),
  );
}

/** Each hook's tests, from a log of `event\tpath\ttest name` lines (one per hook run). */
export function testsPerHook(log: string, hooks: readonly string[]): Map<string, Set<string>> {
  const ran = new Map<string, Set<string>>(hooks.map((name) => [name, new Set()]));
  for (const line of (existsSync(log) ? readFileSync(log, 'utf8') : '').split('\n').filter(Boolean)) {
    const [event, path, name] = line.split('\t');
    ran.get(event!)?.add(`${path}\t${name}`);
  }
  return ran;
}
