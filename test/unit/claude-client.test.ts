/**
 * scripts/claude-client.mjs, the e2e suite's client installer, run as a process against a stand-in `npm` that
 * "installs" a fake client the way the real package does (a placeholder binary its postinstall replaces).
 */
import { chmodSync, existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, ROOT, type Sandbox } from '../helpers/sandbox.js';

const SCRIPT = join(ROOT, 'scripts', 'claude-client.mjs');
const PINNED = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).config as {
  claudeCodeVersion: string;
  agentSdkVersion: string;
};

/** `npm install <name>@<version> --prefix <dir> ...`: logs its arguments; FAKE_NPM=fail|wrong-version|slow changes what it does. */
const FAKE_NPM = `#!/usr/bin/env node
const { appendFileSync, mkdirSync, symlinkSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const args = process.argv.slice(2);
appendFileSync(process.env.FAKE_NPM_LOG, JSON.stringify(args) + '\\n');
if (process.env.FAKE_NPM === 'fail') { process.stderr.write('npm error 404 Not Found\\n'); process.exit(1); }
const prefix = args[args.indexOf('--prefix') + 1];
const spec = args.find((a) => a.startsWith('@anthropic-ai/'));
const at = spec.lastIndexOf('@');
const [name, version] = [spec.slice(0, at), spec.slice(at + 1)];
const pkg = join(prefix, 'node_modules', ...name.split('/'));
mkdirSync(pkg, { recursive: true });
if (name === '@anthropic-ai/claude-code') {
  const printed = process.env.FAKE_NPM === 'wrong-version' ? '0.0.1' : version;
  mkdirSync(join(pkg, 'bin'));
  writeFileSync(join(pkg, 'bin', 'claude.exe'), '#!/bin/sh\\necho placeholder\\n', { mode: 0o755 });
  writeFileSync(join(pkg, 'native'), '#!/bin/sh\\necho "' + printed + ' (Claude Code)"\\n', { mode: 0o755 });
  writeFileSync(join(pkg, 'install.cjs'), "require('node:fs').copyFileSync('native', 'bin/claude.exe')\\n");
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name, version, scripts: { postinstall: 'node install.cjs' } }));
  mkdirSync(join(prefix, 'node_modules', '.bin'));
  symlinkSync('../@anthropic-ai/claude-code/bin/claude.exe', join(prefix, 'node_modules', '.bin', 'claude'));
} else {
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name, version }));
  writeFileSync(join(pkg, 'sdk.mjs'), 'export {};\\n');
}
if (process.env.FAKE_NPM === 'slow') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
`;

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
  const npm = box.write('bin/npm', FAKE_NPM);
  chmodSync(npm, 0o755);
});
afterEach(() => box.cleanup());

const cache = () => join(box.root, 'cache', 'context-ceiling');
const npmCalls = () =>
  existsSync(join(box.root, 'npm.log'))
    ? readFileSync(join(box.root, 'npm.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as string[])
    : [];
const client = (args: string[] = [], env: Record<string, string> = {}) =>
  execa(process.execPath, [SCRIPT, ...args], {
    env: {
      PATH: `${join(box.root, 'bin')}:/usr/bin:/bin`,
      HOME: box.home,
      XDG_CACHE_HOME: join(box.root, 'cache'),
      FAKE_NPM_LOG: join(box.root, 'npm.log'),
      ...env,
    },
    extendEnv: false,
    reject: false,
  });

describe('node scripts/claude-client.mjs', () => {
  it('installs the pinned client into the cache, runs its postinstall, checks --version, prints the binary', async () => {
    const run = await client();
    expect(run.exitCode, run.stderr).toBe(0);
    const dir = join(cache(), `claude-code-${PINNED.claudeCodeVersion}`);
    expect(run.stdout).toBe(join(dir, 'node_modules', '.bin', 'claude'));
    expect(run.stderr).toContain(`installing @anthropic-ai/claude-code@${PINNED.claudeCodeVersion} into ${dir}`);
    const [install] = npmCalls();
    expect(install).toEqual(
      expect.arrayContaining(['install', `@anthropic-ai/claude-code@${PINNED.claudeCodeVersion}`, '--include=optional']),
    );
    expect(install).toContain('--ignore-scripts'); // npm may skip it anyway (allowScripts): we run the postinstall ourselves
    expect((await execa(run.stdout, ['--version'])).stdout).toBe(`${PINNED.claudeCodeVersion} (Claude Code)`);
    expect(readdirSync(cache())).toEqual([`claude-code-${PINNED.claudeCodeVersion}`]); // no temp directory left
  });

  it('reuses an install that checks out: no second npm run', async () => {
    const first = await client();
    const second = await client();
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toBe('');
    expect(npmCalls()).toHaveLength(1);
  });

  it('--sdk installs the pinned Agent SDK without its own copy of the client and prints its entry module', async () => {
    const run = await client(['--sdk']);
    expect(run.exitCode, run.stderr).toBe(0);
    const dir = join(cache(), `claude-agent-sdk-${PINNED.agentSdkVersion}`);
    expect(run.stdout).toBe(join(dir, 'node_modules', '@anthropic-ai', 'claude-agent-sdk', 'sdk.mjs'));
    expect(npmCalls()[0]).toEqual(expect.arrayContaining([`@anthropic-ai/claude-agent-sdk@${PINNED.agentSdkVersion}`, '--omit=optional']));
  });

  it('CLAUDE_CODE_VERSION and AGENT_SDK_VERSION choose other versions, each in its own directory', async () => {
    const claude = await client([], { CLAUDE_CODE_VERSION: '2.1.330' });
    const sdk = await client(['--sdk'], { AGENT_SDK_VERSION: '0.3.330' });
    expect(claude.stdout).toBe(join(cache(), 'claude-code-2.1.330', 'node_modules', '.bin', 'claude'));
    expect(sdk.stdout).toBe(join(cache(), 'claude-agent-sdk-0.3.330', 'node_modules', '@anthropic-ai', 'claude-agent-sdk', 'sdk.mjs'));
    expect(npmCalls().map((args) => args[1])).toEqual(['@anthropic-ai/claude-code@2.1.330', '@anthropic-ai/claude-agent-sdk@0.3.330']);
  });

  it('an empty override means the pinned version', async () => {
    const run = await client([], { CLAUDE_CODE_VERSION: '' });
    expect(run.stdout).toBe(join(cache(), `claude-code-${PINNED.claudeCodeVersion}`, 'node_modules', '.bin', 'claude'));
  });

  it.each(['latest', '^2.1.0', '2.1', '../../etc'])('refuses %j as a version (it names a cache directory), exit 1', async (version) => {
    const run = await client([], { CLAUDE_CODE_VERSION: version });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`claude-client: CLAUDE_CODE_VERSION must be an exact version such as 2.1.331 (got ${JSON.stringify(version)})`);
    expect(npmCalls()).toEqual([]);
  });

  it('a failed npm install leaves nothing that looks installed, and says why', async () => {
    const run = await client([], { FAKE_NPM: 'fail' });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('npm error 404 Not Found');
    expect(readdirSync(cache())).toEqual([]);
  });

  it('a client that does not print its version is refused, not cached', async () => {
    const run = await client([], { FAKE_NPM: 'wrong-version' });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`printed "0.0.1 (Claude Code)", not ${PINNED.claudeCodeVersion}`);
    expect(readdirSync(cache())).toEqual([]);
  });

  it('a damaged install in the cache is replaced', async () => {
    const first = await client();
    writeFileSync(first.stdout, '#!/bin/sh\nexit 3\n');
    const again = await client();
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('is unusable');
    expect((await execa(again.stdout, ['--version'])).stdout).toBe(`${PINNED.claudeCodeVersion} (Claude Code)`);
    expect(npmCalls()).toHaveLength(2);
  });

  it('two runs at once both answer the same complete install; a killed run leaves only a temp directory, swept later', async () => {
    const [a, b] = await Promise.all([client([], { FAKE_NPM: 'slow' }), client([], { FAKE_NPM: 'slow' })]);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    expect(a.stdout).toBe(b.stdout);
    expect(npmCalls()).toHaveLength(2); // both installed: the second rename lost the race and took the first's install
    expect(readdirSync(cache())).toEqual([`claude-code-${PINNED.claudeCodeVersion}`]);

    const killed = client(['--sdk'], { FAKE_NPM: 'slow' });
    // Kill it mid-install: once the stand-in npm has written everything and only sleeps (on a loaded
    // machine a fixed delay could kill it earlier, and the orphaned npm would write into the temp later).
    const written = () =>
      readdirSync(cache())
        .filter((name) => name.startsWith('.tmp-'))
        .some((name) => existsSync(join(cache(), name, 'node_modules', '@anthropic-ai', 'claude-agent-sdk', 'sdk.mjs')));
    while (!written()) await new Promise((resolve) => setTimeout(resolve, 25));
    killed.kill('SIGKILL');
    await killed;
    const temps = readdirSync(cache()).filter((name) => name.startsWith('.tmp-'));
    expect(temps).toHaveLength(1);
    expect(readdirSync(cache())).not.toContain(`claude-agent-sdk-${PINNED.agentSdkVersion}`);
    // An hour later the next install sweeps it.
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(join(cache(), temps[0]!), old, old);
    const sdk = await client(['--sdk']);
    expect(sdk.exitCode, sdk.stderr).toBe(0);
    expect(readdirSync(cache()).sort()).toEqual([`claude-agent-sdk-${PINNED.agentSdkVersion}`, `claude-code-${PINNED.claudeCodeVersion}`]);
  });

  it('bad arguments: usage, exit 1', async () => {
    const run = await client(['--what']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe('usage: node scripts/claude-client.mjs [--sdk]');
  });
});
