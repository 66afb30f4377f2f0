/** What `npm pack` ships, and that the packed tarball works once installed somewhere else (no registry, no network). */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { expectedCommand } from '../helpers/hook-table.js';
import { PAYLOAD_FILES } from '../helpers/payload.js';
import { ROOT } from '../helpers/sandbox.js';

const work = mkdtempSync(join(tmpdir(), 'cc-pack-'));
const env = {
  PATH: process.env.PATH ?? '',
  HOME: join(work, 'home'),
  TMPDIR: join(work, 'tmp'),
  npm_config_cache: join(work, 'npm-cache'),
  npm_config_update_notifier: 'false',
  NO_COLOR: '1',
};
for (const dir of ['home', 'tmp', 'app', 'unpacked']) mkdirSync(join(work, dir), { recursive: true });
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (file: string, args: string[], cwd: string, extra: Record<string, string> = {}) =>
  execa(file, args, { cwd, env: { ...env, ...extra }, extendEnv: false, reject: false });

describe('npm pack', () => {
  it('contains what the tarball routes need: the library, the plugin payload (CLI, hooks, skill), the marketplace, policies, docs', async () => {
    const listing = await run('tar', ['-tzf', inject('tarball')], work);
    const files = String(listing.stdout)
      .split('\n')
      .filter(Boolean)
      .map((path) => path.replace(/^package\//, ''))
      .sort();
    const allowed =
      /^(dist\/index\.(js|d\.ts)|plugin\/.+|\.claude-plugin\/marketplace\.json|policies\/[a-z-]+\.json|docs\/([a-z-]+\.md|img\/[a-z-]+\.png)|README\.md|CLAUDE\.md\.snippet|LICENSE|package\.json)$/;
    expect(files.filter((file) => !allowed.test(file))).toEqual([]);
    expect(files.filter((file) => file.startsWith('plugin/'))).toEqual(PAYLOAD_FILES.map((file) => `plugin/${file}`));
    for (const needed of [
      'dist/index.js',
      'dist/index.d.ts',
      '.claude-plugin/marketplace.json',
      'policies/schema.json',
      'docs/hooks.md',
      'README.md',
      'CLAUDE.md.snippet',
      'LICENSE',
    ]) {
      expect(files).toContain(needed);
    }
    // The payload inside the tarball is the committed one, byte for byte: a plugin from either is the same plugin.
    await run('tar', ['-xzf', inject('tarball'), '-C', join(work, 'unpacked')], work);
    for (const file of PAYLOAD_FILES) {
      expect(readFileSync(join(work, 'unpacked', 'package', 'plugin', file)).equals(readFileSync(join(ROOT, 'plugin', file))), file).toBe(
        true,
      );
    }
  });

  it('as a project dependency (npm i ./context-ceiling-*.tgz): the library for the Agent SDK, the bin, and hooks that run it from node_modules', async () => {
    const app = join(work, 'app');
    writeFileSync(join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}');
    const npm = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', inject('tarball')], app);
    expect(npm.exitCode, npm.stderr).toBe(0);
    // The library entry loads without the (optional, peer) Agent SDK installed.
    const lib = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('context-ceiling'); console.log(typeof m.createCeilingGuard, m.createCeilingGuard().matcher)",
      ],
      app,
    );
    expect(lib.stdout).toBe('function Agent|Task|Skill|Workflow');
    const bin = join(app, 'node_modules', '.bin', 'context-ceiling');
    expect((await run(bin, ['--help'], app)).stdout).toContain('Usage: context-ceiling <command>');
    const transcript = join(work, 't.jsonl');
    writeFileSync(transcript, aTranscript().assistant({ cacheRead: 450_000 }).toString());
    const input = JSON.stringify({ session_id: 's', transcript_path: transcript, tool_name: 'Skill', tool_input: { skill: 'deep-dive' } });
    const guard = await execa(bin, ['hook', 'pre-tool-use'], {
      cwd: app,
      env: { ...env, DEV_TEAM_CONTEXT_STRICT: 'on' },
      extendEnv: false,
      input,
      reject: false,
    });
    expect(guard.exitCode).toBe(0);
    expect(JSON.parse(guard.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(guard.stderr).toContain('context-ceiling: blocked Skill "deep-dive"');
    // As a project dependency, install points the hooks at node_modules instead of copying the runtime.
    const install = await run(bin, ['install'], app, { CLAUDE_PROJECT_DIR: app });
    expect(install.stdout).toContain(expectedCommand('$CLAUDE_PROJECT_DIR/node_modules/context-ceiling/plugin/dist', 'pre-tool-use'));
  }, 120_000);
});
