/** The real client's own validator on the plugin and the marketplace this repository is (strict: warnings fail too). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOK_TABLE } from '../../src/core/hook-table.js';
import { ROOT } from '../helpers/sandbox.js';
import { CLAUDE_BIN } from './world.js';

const home = mkdtempSync(join(tmpdir(), 'cc-plugin-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const validate = (...args: string[]) =>
  spawnSync(CLAUDE_BIN, ['plugin', 'validate', '--strict', ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } });

describe('claude plugin validate', () => {
  it('the real Claude Code validates the plugin, strictly', () => {
    const result = validate('--json', join(ROOT, 'plugin'));
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.success).toBe(true);
    expect(report.manifest.errors).toEqual([]);
    expect(report.manifest.warnings).toEqual([]);
    expect(report.provides.hooks.map((h: { event: string }) => h.event).sort()).toEqual(HOOK_TABLE.map((spec) => spec.event).sort());
  });

  it('the real Claude Code validates the repository as its own marketplace, strictly, whose plugin is plugin/', () => {
    const result = validate(join(ROOT, '.claude-plugin', 'marketplace.json'));
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(ROOT, '.claude-plugin', 'marketplace.json'), 'utf8')).plugins).toEqual([
      expect.objectContaining({ name: 'context-ceiling', source: './plugin' }),
    ]);
  });
});
