/** What `npm pack` ships, and that the packed tarball works once installed somewhere else. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { ROOT } from '../helpers/sandbox.js';

const work = mkdtempSync(join(tmpdir(), 'cc-pack-'));
let tarball = '';
let files: string[] = [];
const env = {
  PATH: process.env.PATH ?? '',
  HOME: join(work, 'home'),
  TMPDIR: join(work, 'tmp'),
  npm_config_cache: join(work, 'npm-cache'),
  NO_COLOR: '1',
};

beforeAll(async () => {
  for (const dir of ['home', 'tmp', 'out', 'app']) mkdirSync(join(work, dir), { recursive: true });
  // --ignore-scripts: the build already ran (pretest); prepack would rebuild dist under the other test workers' feet.
  const pack = await execa('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', join(work, 'out')], {
    cwd: ROOT,
    env,
    extendEnv: false,
  });
  const [info] = JSON.parse(String(pack.stdout)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, 'out', info!.filename);
  files = info!.files.map((f) => f.path).sort();
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm pack', () => {
  it('contains exactly what a user needs: dist, hooks, skills, policies, docs, README, CLAUDE.md.snippet, LICENSE', () => {
    const allowed =
      /^(dist\/index\.(js|d\.ts)|plugin\/(\.claude-plugin\/plugin\.json|bin\/context-ceiling|dist\/[a-z-]+\.cjs|hooks\/hooks\.json|skills\/[a-z-]+\/SKILL\.md)|\.claude-plugin\/marketplace\.json|policies\/[a-z-]+\.json|docs\/([a-z-]+\.md|img\/[a-z-]+\.png)|README\.md|CLAUDE\.md\.snippet|LICENSE|package\.json)$/;
    expect(files.filter((file) => !allowed.test(file))).toEqual([]);
    for (const needed of [
      'dist/index.js',
      'dist/index.d.ts',
      'plugin/dist/cli.cjs',
      'plugin/dist/statusline.cjs',
      'plugin/dist/hook.cjs',
      'plugin/dist/hook-events.cjs',
      'plugin/dist/policy-parse.cjs',
      'plugin/dist/yaml-parse.cjs',
      'plugin/hooks/hooks.json',
      'plugin/skills/context-summarization/SKILL.md',
      'policies/schema.json',
      'policies/strict-ci.json',
      'docs/configuration.md',
      'docs/hooks.md',
      'README.md',
      'CLAUDE.md.snippet',
      'LICENSE',
    ]) {
      expect(files).toContain(needed);
    }
  });

  it('installs into another project with no network (no runtime dependencies) and runs', async () => {
    const app = join(work, 'app');
    writeFileSync(join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}');
    await execa('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: app, env, extendEnv: false });
    const bin = join(app, 'node_modules', '.bin', 'context-ceiling');
    const help = await execa(bin, ['--help'], { cwd: app, env, extendEnv: false });
    expect(help.stdout).toContain('Usage: context-ceiling <command>');
    const transcript = join(work, 't.jsonl');
    writeFileSync(transcript, aTranscript().assistant({ cacheRead: 150_000 }).toString());
    const input = JSON.stringify({ session_id: 's', transcript_path: transcript, tool_name: 'Skill', tool_input: { skill: 'deep-dive' } });
    const guard = await execa(bin, ['hook', 'pre-tool-use'], {
      cwd: app,
      env: { ...env, DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '200000' },
      extendEnv: false,
      input,
      reject: false,
    });
    expect(guard.exitCode).toBe(2);
    expect(guard.stderr).toContain('context-ceiling: blocked Skill "deep-dive"');
    // The library entry loads without the (optional, peer) Agent SDK installed.
    const lib = await execa(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('context-ceiling'); console.log(typeof m.createCeilingGuard, m.createCeilingGuard().matcher)",
      ],
      { cwd: app, env, extendEnv: false },
    );
    expect(lib.stdout).toBe('function Agent|Task|Skill');
    // As a project dependency, install points the hooks at node_modules instead of copying the runtime.
    const install = await execa(bin, ['install'], { cwd: app, env: { ...env, CLAUDE_PROJECT_DIR: app }, extendEnv: false });
    expect(install.stdout).toContain('node "$CLAUDE_PROJECT_DIR/node_modules/context-ceiling/plugin/dist/hook.cjs" pre-tool-use');
  }, 120_000);
});
