/**
 * The end-to-end suites that run hooks in the real client, run again with a `bun` first on the PATH that notes
 * each run before it runs the pinned Bun (CC_HOOK_RUNTIME=bun keeps it there: test/e2e/path-setup.ts): the hook
 * command every route installs by default runs every hook with Bun, and every test passes. With the package
 * project's test/blackbox/bun-runtime.test.ts, the whole suite passes under both runtimes. Out of it: the SDK's
 * suites (the library runs in the caller's process, no hook command) and the plugin's manifest check (no hook runs).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOK_NAMES } from '../../src/core/hook-table.js';
import { notPassed, runSuites, testsWith } from '../helpers/hook-suites.js';
import { BUN_BIN, ROOT } from '../helpers/sandbox.js';

const work = mkdtempSync(join(tmpdir(), 'cc-e2e-bun-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Files that run no hook command: the SDK's (in-process) and the manifest validation; and the Node LTS re-run (its own). */
const NO_HOOK_COMMAND = ['bun-runtime.test.ts', 'node-lts-runtime.test.ts', 'sdk.test.ts', 'sdk-types.test.ts', 'plugin-validate.test.ts'];

function hookCommandSuites(): string[] {
  return readdirSync(join(ROOT, 'test', 'e2e'))
    .filter((name) => name.endsWith('.test.ts') && !NO_HOOK_COMMAND.includes(name))
    .map((name) => join('test', 'e2e', name));
}

describe('the end-to-end suites with Bun on the PATH', () => {
  it('every test passes, and the real client ran every hook, and the status line, with Bun', () => {
    const log = join(work, 'runs.log');
    writeFileSync(join(work, 'bun'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${BUN_BIN}' "$@"\n`, { mode: 0o755 });
    const suites = hookCommandSuites();
    expect(suites.length).toBeGreaterThan(10);
    const report = runSuites(
      suites,
      { CC_HOOK_RUNTIME: 'bun', PATH: `${work}:${process.env.PATH ?? '/usr/bin:/bin'}` },
      join(work, 'report.json'),
      'e2e',
    );
    expect(notPassed(report, true)).toEqual([]);
    expect(testsWith(report, 'passed').length).toBeGreaterThan(20);
    const events = new Set(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' ').at(-1)),
    );
    // PostToolUse (matched on file writes) is no end-to-end test's subject; the package project's Bun run covers it.
    expect(HOOK_NAMES.filter((name) => name !== 'post-tool-use' && !events.has(name))).toEqual([]);
    // The interactive client's status line (install --statusline, claude-code.test.ts) is run the same way.
    expect([...events].filter((last) => last?.endsWith('/statusline.cjs')).length).toBeGreaterThan(0);
  }, 600_000);
});
