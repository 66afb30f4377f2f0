/**
 * The end-to-end suites that cover a user's first install and every guard verdict, run again with the current
 * LTS Node (bench/lts-node.ts: fetched once from the npm registry) as the `node` on the PATH, through a shim that
 * notes each run: the machine's Node (20) is past its end of life, and a user installing Node today gets 26, which
 * loads our bundles and their code cache (kept per V8) differently. No Bun on the PATH (path-setup.ts), so the hook
 * command every route installs runs Node, as on such a user's machine.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findLtsNode, NODE_LTS_VERSION } from '../../bench/lts-node.js';
import { notPassed, runSuites, testsWith } from '../helpers/hook-suites.js';

const work = mkdtempSync(join(tmpdir(), 'cc-e2e-node-lts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A first install with nothing configured, the guard's verdicts and the status line, compaction, a strict CI loop. */
const SUITES = ['first-install.test.ts', 'claude-code.test.ts', 'compaction.test.ts', 'strict-loop.test.ts'].map((name) =>
  join('test', 'e2e', name),
);

describe(`the end-to-end suites with Node ${NODE_LTS_VERSION} (the current LTS line) on the PATH`, () => {
  it('every test passes, and the real client ran every hook the suites reach, and the status line, with that Node', () => {
    const node = findLtsNode(join(homedir(), '.cache', 'context-ceiling'));
    expect(node, `node-${process.platform}-${process.arch}@${NODE_LTS_VERSION} could not be fetched from the npm registry`).toBeDefined();
    const log = join(work, 'runs.log');
    writeFileSync(join(work, 'node'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${node}' "$@"\n`, { mode: 0o755 });
    // First on the client's PATH (test/e2e/world.ts puts the tests' own Node's folder there otherwise).
    const report = runSuites(SUITES, { CC_HOOK_NODE_DIR: work }, join(work, 'report.json'), 'e2e');
    expect(notPassed(report, true)).toEqual([]);
    expect(testsWith(report, 'passed').length).toBeGreaterThanOrEqual(14);
    const runs = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const events = new Set(runs.filter((line) => line.includes('/hook.cjs ')).map((line) => line.split(' ').at(-1)));
    expect([...events].sort()).toEqual(
      expect.arrayContaining(['post-compact', 'pre-compact', 'pre-tool-use', 'session-start', 'user-prompt-submit']),
    );
    expect(runs.filter((line) => line.endsWith('/statusline.cjs')).length).toBeGreaterThan(0);
  }, 600_000);
});
