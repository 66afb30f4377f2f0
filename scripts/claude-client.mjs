#!/usr/bin/env node
/**
 * The Claude Code client and Agent SDK the end-to-end tests run, installed on demand from the npm registry
 * into a per-user cache (they are not devDependencies: ~880 MB only those tests need).
 *
 *   node scripts/claude-client.mjs          prints the path of the pinned `claude` binary, installing it first if needed
 *   node scripts/claude-client.mjs --sdk    prints the path of the pinned Agent SDK's entry module (sdk.mjs)
 *
 * Versions: package.json "config" (claudeCodeVersion, agentSdkVersion), overridden by CLAUDE_CODE_VERSION and
 * AGENT_SDK_VERSION. Cache: ${XDG_CACHE_HOME:-~/.cache}/context-ceiling/claude-code-<version>/ (and
 * claude-agent-sdk-<version>/); delete a directory to force a fresh install. Everything here is synchronous, so a
 * test, a script or a vitest globalSetup can call it directly.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_JSON = fileURLToPath(new URL('../package.json', import.meta.url));
/** Exact versions only: a version names a cache directory, so a range or a dist-tag would make "reuse when present" wrong. */
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
/** A temp install older than this belongs to a run that was killed; a live one finishes in minutes. */
const STALE_TEMP_MS = 60 * 60 * 1000;
const INSTALL_TIMEOUT_MS = 20 * 60 * 1000;

/**
 * The versions to use: package.json "config", unless the environment names others. The SDK's override is not
 * CLAUDE_AGENT_SDK_VERSION: the SDK itself sets that, in its host process and in every hook and Bash command of its
 * sessions (seen with 0.3.331), so a test run started from inside one would silently follow the host's SDK.
 * @param {Record<string, string | undefined>} [env]
 * @returns {{ claudeCode: string, agentSdk: string }}
 */
export function clientVersions(env = process.env) {
  const { config = {} } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8'));
  return {
    claudeCode: exactVersion(env.CLAUDE_CODE_VERSION || config.claudeCodeVersion, 'CLAUDE_CODE_VERSION'),
    agentSdk: exactVersion(env.AGENT_SDK_VERSION || config.agentSdkVersion, 'AGENT_SDK_VERSION'),
  };
}

/**
 * Where installed clients live.
 * @param {Record<string, string | undefined>} [env]
 */
export function clientCacheDir(env = process.env) {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'context-ceiling');
}

/**
 * The absolute path of the `claude` binary of that version (default: the pinned one), installed first when it is not
 * in the cache; always checked to print that version. Synchronous: a first install takes a minute or two.
 * @param {{ version?: string, cacheDir?: string, log?: (line: string) => void }} [options]
 * @returns {string}
 */
export function claudeCodeBinary(options = {}) {
  const version = exactVersion(options.version ?? clientVersions().claudeCode, 'version');
  const dir = ensureInstalled({
    name: '@anthropic-ai/claude-code',
    version,
    dir: join(options.cacheDir ?? clientCacheDir(), `claude-code-${version}`),
    // The native binary comes in a per-platform optional dependency; the package's postinstall links it into place.
    npmFlags: ['--include=optional'],
    postinstall: true,
    check: (root) => checkClaude(claudeIn(root), version),
    log: options.log ?? logToStderr,
  });
  return claudeIn(dir);
}

/**
 * The absolute path of that Agent SDK version's entry module (import it with `pathToFileURL(path).href`), installed
 * first when needed. Without the SDK's own copy of the client (its optional dependency): run it with
 * `pathToClaudeCodeExecutable: claudeCodeBinary()`.
 * @param {{ version?: string, cacheDir?: string, log?: (line: string) => void }} [options]
 * @returns {string}
 */
export function agentSdkEntry(options = {}) {
  const version = exactVersion(options.version ?? clientVersions().agentSdk, 'version');
  const dir = ensureInstalled({
    name: '@anthropic-ai/claude-agent-sdk',
    version,
    dir: join(options.cacheDir ?? clientCacheDir(), `claude-agent-sdk-${version}`),
    npmFlags: ['--omit=optional'],
    postinstall: false,
    check: (root) => checkSdk(root, version),
    log: options.log ?? logToStderr,
  });
  return sdkIn(dir);
}

const claudeIn = (root) => join(root, 'node_modules', '.bin', 'claude');
const sdkPackageIn = (root) => join(root, 'node_modules', '@anthropic-ai', 'claude-agent-sdk');
const sdkIn = (root) => join(sdkPackageIn(root), 'sdk.mjs');
const logToStderr = (line) => process.stderr.write(`${line}\n`);

/** @returns {string} */
function exactVersion(value, name) {
  if (typeof value === 'string' && EXACT_VERSION.test(value)) return value;
  throw new Error(`claude-client: ${name} must be an exact version such as 2.1.331 (got ${JSON.stringify(value ?? null)})`);
}

/** Why the installed client is unusable, or undefined when `claude --version` prints the version. */
function checkClaude(bin, version) {
  if (!existsSync(bin)) return `${bin} is missing`;
  const home = mkdtempSync(join(tmpdir(), 'claude-client-home-')); // --version must not touch the user's ~/.claude
  try {
    const out = execFileSync(bin, ['--version'], {
      encoding: 'utf8',
      timeout: 60_000,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
    }).trim();
    return out === `${version} (Claude Code)` ? undefined : `\`claude --version\` printed ${JSON.stringify(out)}, not ${version}`;
  } catch (error) {
    return `\`claude --version\` failed: ${error.message}`;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function checkSdk(root, version) {
  try {
    const pkg = JSON.parse(readFileSync(join(sdkPackageIn(root), 'package.json'), 'utf8'));
    if (pkg.version !== version) return `the SDK there is ${pkg.version}, not ${version}`;
    return existsSync(sdkIn(root)) ? undefined : `${sdkIn(root)} is missing`;
  } catch (error) {
    return `no readable SDK package: ${error.message}`;
  }
}

/**
 * The install directory, made when missing: `npm install` into a temp directory beside it, checked there, then renamed
 * into place, so the final name only ever holds a complete, checked install (a killed or concurrent run leaves at most
 * a temp directory, swept later; the loser of a race uses the winner's install).
 */
function ensureInstalled({ name, version, dir, npmFlags, postinstall, check, log }) {
  if (existsSync(dir)) {
    const problem = check(dir);
    if (!problem) return dir;
    log(`claude-client: ${dir} is unusable (${problem}); installing it again`);
    const aside = `${dir}.broken-${process.pid}-${Date.now()}`;
    renameSync(dir, aside);
    rmSync(aside, { recursive: true, force: true });
  }
  const cache = dirname(dir);
  mkdirSync(cache, { recursive: true });
  sweepStaleTemps(cache);
  const temp = mkdtempSync(join(cache, `.tmp-${name.replace(/\W+/g, '-')}-${version}-`));
  try {
    log(`claude-client: installing ${name}@${version} into ${dir} (once; later runs reuse it)`);
    writeFileSync(join(temp, 'package.json'), `${JSON.stringify({ name: 'context-ceiling-e2e-client', private: true }, null, 2)}\n`);
    npm(['install', `${name}@${version}`, '--prefix', temp, ...npmFlags], temp);
    if (postinstall) runPostinstall(join(temp, 'node_modules', ...name.split('/')));
    const problem = check(temp);
    if (problem) throw new Error(`claude-client: the fresh install of ${name}@${version} is unusable: ${problem}`);
    try {
      renameSync(temp, dir);
    } catch (error) {
      // Another run finished first: its directory is complete by construction; use it if it checks out.
      if (!existsSync(dir) || check(dir)) throw error;
    }
    return dir;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** npm with every setting this install depends on stated, whatever the caller's npm config or `npm run` environment says. */
function npm(args, cwd) {
  const flags = ['--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--engine-strict=false', '--loglevel=error'];
  try {
    execFileSync('npm', [...args, ...flags], { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: INSTALL_TIMEOUT_MS, encoding: 'utf8' });
  } catch (error) {
    throw new Error(`claude-client: npm ${args.join(' ')} failed: ${error.stderr || error.message}`);
  }
}

/**
 * The package's own postinstall, run by us rather than npm: npm may skip dependency install scripts by policy
 * (npm 11's allowScripts), and this one is what puts the native binary in place.
 */
function runPostinstall(packageDir) {
  const script = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).scripts?.postinstall;
  if (!script) return;
  try {
    execFileSync('sh', ['-c', script], {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 5 * 60 * 1000,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}` },
    });
  } catch (error) {
    throw new Error(`claude-client: postinstall of ${packageDir} failed: ${error.stderr || error.message}`);
  }
}

function sweepStaleTemps(cache) {
  for (const entry of readdirSync(cache)) {
    if (!entry.startsWith('.tmp-')) continue;
    const path = join(cache, entry);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_TEMP_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // gone already (another run swept it)
    }
  }
}

function main(argv) {
  const [flag, ...rest] = argv;
  if (rest.length > 0 || (flag !== undefined && flag !== '--sdk')) {
    process.stderr.write('usage: node scripts/claude-client.mjs [--sdk]\n');
    return 1;
  }
  try {
    process.stdout.write(`${flag === '--sdk' ? agentSdkEntry() : claudeCodeBinary()}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
