/**
 * The end-to-end suites that run every hook and the status line in the real client, run again with a `bun` first
 * on the PATH that notes each run before it runs the pinned Bun (CC_HOOK_RUNTIME=bun keeps it there:
 * test/e2e/path-setup.ts): the hook command the README's routes install by default runs every hook with Bun, and
 * every test passes. With the package project's test/blackbox/bun-runtime.test.ts (every hook suite under Bun),
 * the product is tested under both runtimes. Not every end-to-end file runs twice: each re-run costs the real
 * client's start several times a test, and the whole suite must stay well under ten minutes on a 2-core machine.
 * The ones left out test what the hook command's runtime does not change (install-routes.test.ts also runs every
 * hook with Bun in the suite's own run; the SDK's run in the caller's process; plugin-routes.test.ts installs the
 * plugin from a folder and from git, whose hook command is first-install.test.ts's; strict-loop.test.ts chains a strict
 * block, the client's compaction and the load then passing, each of which the other two files run with Bun).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOK_NAMES } from '../../src/core/hook-table.js';
import { notPassed, runSuites, testsWith } from '../helpers/hook-suites.js';
import { BUN_BIN, ROOT } from '../helpers/sandbox.js';

const work = mkdtempSync(join(tmpdir(), 'cc-e2e-bun-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A first install with nothing configured but strict mode (the plugin route), every guard verdict, the monitor and the status line, compaction and the resumption. */
const SUITES = ['first-install.test.ts', 'claude-code.test.ts', 'compaction.test.ts'].map((name) => join('test', 'e2e', name));

describe('the end-to-end suites with Bun on the PATH', () => {
  it('every test passes, and the real client ran every hook, and the status line, with Bun', () => {
    const log = join(work, 'runs.log');
    writeFileSync(join(work, 'bun'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${BUN_BIN}' "$@"\n`, { mode: 0o755 });
    const report = runSuites(
      SUITES,
      { CC_HOOK_RUNTIME: 'bun', PATH: `${work}:${process.env.PATH ?? '/usr/bin:/bin'}` },
      join(work, 'report.json'),
      { project: 'e2e' },
    );
    expect(notPassed(report, true)).toEqual([]);
    // Each suite ran and passed something: a child that found none of them passed nothing.
    expect(report.testResults.map((file) => relative(ROOT, file.name)).sort()).toEqual([...SUITES].sort());
    expect(testsWith(report, 'passed').length).toBeGreaterThanOrEqual(10);
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
