/**
 * What a hook process loads of Node itself, path by path: every built-in module a hook loads is compiled in that
 * process, on every prompt and tool call. node:crypto (with the stream stack it drags in) costs ~15 % of a Node
 * start, worker_threads ~9 %: neither may load on the paths a session runs all the time (bench/RESULTS.md). The CLI
 * bin likewise: node:child_process (~9 % of a start, with streams, net and dgram) only for the replay it hands to Bun.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { ORCHESTRATION } from '../helpers/compaction-fixture.js';
import {
  BUN_BIN,
  FIXTURES,
  HOOK_BIN,
  olderNodePreload,
  ROOT,
  runCli,
  runHook,
  useProjectSandbox,
  withoutNpmBins,
} from '../helpers/sandbox.js';

const { sandbox } = useProjectSandbox();

/** Built-ins no common path needs: each is a measurable share of a Node start. */
const HEAVY = ['crypto', 'worker_threads', 'stream', 'os', 'child_process', 'net', 'tty', 'zlib', 'http', 'readline'];

/** The built-in modules the hook loaded beyond what Node had loaded when its first line ran. */
async function builtinsLoaded(event: string, input: Record<string, unknown>, env: Record<string, string> = {}) {
  const out = join(sandbox().root, `modules-${event}-${Math.random().toString(36).slice(2)}.txt`);
  const preload = sandbox().write(
    'footprint.cjs',
    `const before = new Set(process.moduleLoadList);
process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.filter((m) => !before.has(m)).join('\\n')));`,
  );
  const run = await runHook(
    sandbox(),
    input,
    // Nothing configured, as a user installs it: the window is the default model's (1,000,000), the ceiling 40 %.
    { NODE_OPTIONS: `--require ${preload}`, ...env },
    'hook',
    event,
  );
  const modules = readFileSync(out, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('NativeModule '))
    .map((line) => line.slice('NativeModule '.length));
  return { run, modules };
}

function setUp(tokens = 60_000) {
  // The private state directory a user has after the first run: the launcher compiles from its code cache.
  mkdirSync(join(sandbox().home, '.local', 'state', 'context-ceiling'), { recursive: true, mode: 0o700 });
  return sandbox().write('t.jsonl', aTranscript().assistant({ cacheRead: tokens }).toString());
}

const heavyIn = (modules: string[]) => modules.filter((m) => HEAVY.includes(m) || HEAVY.some((h) => m.startsWith(`internal/${h}/`)));

describe('the Node built-ins a hook loads', { tags: ['hook'] }, () => {
  it('the guard, allowing and warning: none of the heavy ones', async () => {
    const transcript = setUp();
    const input = { session_id: 's', transcript_path: transcript, tool_name: 'Skill', tool_input: { skill: 'deep-dive' } };
    const allow = await builtinsLoaded('pre-tool-use', input);
    expect(allow.run.reason).toBe('allow below-ceiling');
    expect(heavyIn(allow.modules)).toEqual([]);
    const over = setUp(450_000); // 45 % of the default model's window: over the 40 % ceiling
    const warn = await builtinsLoaded('pre-tool-use', { ...input, transcript_path: over });
    expect(warn.run.reason).toBe('warn over-ceiling');
    expect(heavyIn(warn.modules)).toEqual([]);
  });

  it('the monitor on every prompt, SessionStart with nothing to resume, PostToolUse: none of the heavy ones', async () => {
    const transcript = setUp();
    const monitor = await builtinsLoaded('user-prompt-submit', { session_id: 's', transcript_path: transcript, prompt: 'go on' });
    expect(monitor.run.reason).toBe('monitor nominal');
    expect(heavyIn(monitor.modules)).toEqual([]);
    const start = await builtinsLoaded('session-start', { session_id: 's', transcript_path: transcript, source: 'startup' });
    expect(start.run.reason).toBe('no-checkpoint-to-resume');
    expect(heavyIn(start.modules)).toEqual([]);
    const write = await builtinsLoaded('post-tool-use', {
      session_id: 's',
      transcript_path: transcript,
      tool_name: 'Write',
      tool_input: { file_path: join(sandbox().project, 'a.ts'), content: 'x' },
    });
    expect(write.run.reason).toBe('not-the-orchestration-file');
    expect(heavyIn(write.modules)).toEqual([]);
  });

  it('PreCompact writing a checkpoint of a few KB hashes it without node:crypto', async () => {
    const transcript = setUp();
    const run = await builtinsLoaded('pre-compact', { session_id: 's', transcript_path: transcript, trigger: 'auto' });
    expect(run.run.reason).toBe('checkpoint cx-001');
    expect(heavyIn(run.modules)).toEqual([]);
  });

  /** A long resumption state: its checkpoint is over the 2 KB the JavaScript digest is kept for. */
  const LONG_ORCHESTRATION = `${ORCHESTRATION}${Array.from({ length: 30 }, (_, i) => `    - src/hooks/module-${i}/in-flight.ts\n`).join('')}`;

  async function aroundACompaction(nodeOptions: string) {
    const transcript = setUp();
    sandbox().write('project/ORCHESTRATION.yaml', LONG_ORCHESTRATION);
    const input = { session_id: 's', transcript_path: transcript };
    const footprint = `--require ${join(sandbox().root, 'footprint.cjs')}`;
    const pre = await builtinsLoaded('pre-compact', { ...input, trigger: 'auto' });
    const checkpoint = readFileSync(join(sandbox().project, '.claude', 'context-ceiling', 'checkpoints', 's', 'cx-001-checkpoint.json'));
    expect(checkpoint.length).toBeGreaterThan(2048);
    const env = { NODE_OPTIONS: `${footprint} ${nodeOptions}` };
    const start = await builtinsLoaded('session-start', { ...input, source: 'compact' }, env);
    const post = await builtinsLoaded('post-compact', { ...input, trigger: 'auto', compact_summary: 'Summary: phase 4.' }, env);
    return { pre, start, post };
  }

  it('around a compaction, a checkpoint over 2 KB is hashed without node:crypto: PreCompact, the alert after it, PostCompact', async () => {
    const { pre, start, post } = await aroundACompaction('');
    expect(pre.run.reason).toBe('checkpoint cx-001');
    expect(start.run.reason).toBe('compaction-alert');
    expect(post.run.reason).toBe('summary-kept');
    for (const run of [pre, start, post]) expect(run.modules).not.toContain('crypto');
  });

  it('without WebAssembly (--jitless) the same checkpoint is still its own: node:crypto hashes it, to the same digest', async () => {
    const { start, post } = await aroundACompaction('--jitless');
    // The alert and the kept summary each need the digest PreCompact recorded (by WebAssembly) to match.
    expect(start.run.reason).toBe('compaction-alert');
    expect(post.run.reason).toBe('summary-kept');
    expect(start.modules).toContain('crypto');
    expect(post.modules).toContain('crypto');
  });

  it('the check itself sees a heavy module when one loads (a preload that requires node:crypto)', async () => {
    const transcript = setUp();
    const extra = sandbox().write('loads-crypto.cjs', "require('node:crypto');");
    const { run, modules } = await builtinsLoaded(
      'pre-tool-use',
      { session_id: 's', transcript_path: transcript, tool_name: 'Skill', tool_input: { skill: 'deep-dive' } },
      { NODE_OPTIONS: `--require ${join(sandbox().root, 'footprint.cjs')} --require ${extra}` },
    );
    expect(run.reason).toBe('allow below-ceiling');
    expect(heavyIn(modules)).toContain('crypto');
  });
});

describe('the built-ins a hook requires under Bun', () => {
  /** What the hook run by Bun require()d, in order (a preload wrapping Module.prototype.require), and its verdict. */
  async function requiredUnderBun(input: Record<string, unknown>) {
    const out = join(sandbox().root, `required-${Math.random().toString(36).slice(2)}.txt`);
    const preload = sandbox().write(
      'bun-required.cjs',
      `const { appendFileSync } = require('fs');
const Module = require('module');
const original = Module.prototype.require;
Module.prototype.require = function (id) { appendFileSync(${JSON.stringify(out)}, id + '\\n'); return original.apply(this, arguments); };`,
    );
    const run = await execa(BUN_BIN, ['--preload', preload, HOOK_BIN, 'pre-tool-use'], {
      input: JSON.stringify(input),
      env: sandbox().env({ DEV_TEAM_CONTEXT_DEBUG: '1' }),
      extendEnv: false,
      cwd: sandbox().project,
      reject: false,
    });
    return { run, required: existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean) : [] };
  }

  // node:vm compiles a bundle with V8's code cache, which only Node keeps; loading it costs Bun ~2 ms a hook (bench/RESULTS.md).
  it('the guard allowing: the bundle it runs and fs and path, never node:vm (the check sees every require)', async () => {
    const transcript = setUp();
    const { run, required } = await requiredUnderBun({
      session_id: 's',
      transcript_path: transcript,
      tool_name: 'Skill',
      tool_input: { skill: 'deep-dive' },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('verdict pre-tool-use: allow below-ceiling');
    expect(required).toEqual(expect.arrayContaining(['fs', 'path', join(ROOT, 'plugin', 'dist', 'hook-pre-tool-use.cjs')]));
    expect(required.filter((id) => id === 'vm' || id === 'node:vm')).toEqual([]);
  });
});

describe('the Node built-ins the CLI bin loads', () => {
  /** The built-ins `context-ceiling <args>` loaded beyond what Node had when its first line ran, and its run. */
  async function cliBuiltins(args: string[], env: Record<string, string> = {}) {
    const out = join(sandbox().root, `modules-cli-${Math.random().toString(36).slice(2)}.txt`);
    const preload = sandbox().write(
      'cli-footprint.cjs',
      `const before = new Set(process.moduleLoadList);
process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.filter((m) => !before.has(m)).join('\\n')));`,
    );
    const run = await runCli(sandbox(), args, { CLAUDE_PROJECT_DIR: sandbox().project, NODE_OPTIONS: `--require ${preload}`, ...env });
    const modules = readFileSync(out, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('NativeModule '))
      .map((line) => line.slice('NativeModule '.length));
    return { run, modules };
  }

  /** One recorded session where replay looks (~/.claude/projects), at 60,000 tokens: its path. */
  function aSession(): string {
    const dir = join(sandbox().home, '.claude', 'projects', '-p');
    mkdirSync(dir, { recursive: true });
    return sandbox().write(join('home', '.claude', 'projects', '-p', 's.jsonl'), aTranscript().assistant({ cacheRead: 60_000 }).toString());
  }

  it('no node:child_process (streams, net, dgram with it) unless a replay is handed to Bun: status, and a replay Node runs', async () => {
    const transcript = aSession();
    const status = await cliBuiltins(['status', '--json', '--transcript', transcript]);
    expect(status.run.exitCode, status.run.stderr).toBe(0);
    expect(JSON.parse(status.run.stdout)).toMatchObject({ occupancy: 60_005, ceilingPct: 40 });
    expect(status.modules).not.toContain('child_process');
    const replay = await cliBuiltins(['replay', '--json', '--runtime', 'node']);
    expect(replay.run.exitCode, replay.run.stderr).toBe(0);
    expect(JSON.parse(replay.run.stdout)).toHaveProperty('sessions', 1);
    expect(replay.modules).not.toContain('child_process');
  });

  it('the check itself sees node:child_process where the bin hands a replay to the Bun on the PATH', async () => {
    aSession();
    const bunDir = join(sandbox().root, 'bun-bin');
    mkdirSync(bunDir);
    symlinkSync(realpathSync(BUN_BIN), join(bunDir, 'bun'));
    // Handed over only from a Node older than 22 (cli/replay-runtime.ts): the machine's 20 here, else one reporting 20.
    const replay = await cliBuiltins(['replay', '--json'], {
      PATH: `${bunDir}${delimiter}${withoutNpmBins(process.env.PATH ?? '')}`,
      NODE_OPTIONS: `--require ${join(sandbox().root, 'cli-footprint.cjs')} ${olderNodePreload(sandbox())}`,
    });
    expect(replay.run.exitCode, replay.run.stderr).toBe(0);
    expect(JSON.parse(replay.run.stdout)).toHaveProperty('sessions', 1);
    expect(replay.modules).toContain('child_process');
  });

  // node:worker_threads brings the stream stack: ~2.5 ms of a Node start, ~7 ms of Bun's (bench/RESULTS.md).
  it('replay in one thread loads no node:worker_threads nor the stream stack it brings; with two it does (the check sees them)', async () => {
    for (const session of ['s1', 's2'])
      sandbox().write(
        join('home', '.claude', 'projects', '-p', `${session}.jsonl`),
        aTranscript(session).assistant({ cacheRead: 60_000 }).toString(),
      );
    const workerModules = async (jobs: number) => {
      const { run, modules } = await cliBuiltins(['replay', '--json', '--runtime', 'node', '--jobs', String(jobs)]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ sessions: 2, threads: jobs });
      return modules.filter((m) => m === 'worker_threads' || m === 'stream' || m.startsWith('internal/worker'));
    };
    expect(await workerModules(1)).toEqual([]);
    expect(await workerModules(2)).toEqual(expect.arrayContaining(['worker_threads', 'stream']));
  });
});

describe('how a hook process ends', () => {
  /** The hook's run, and whether it ended through process.exit (Node's natural exit never calls process.reallyExit). */
  const ended = () => {
    const out = join(sandbox().root, `ended-${Math.random().toString(36).slice(2)}.txt`);
    const preload = sandbox().write(
      'ended.cjs',
      `const { appendFileSync } = require('fs');
const reallyExit = process.reallyExit;
process.reallyExit = function (code) { appendFileSync(${JSON.stringify(out)}, 'process.exit ' + code + '\\n'); return reallyExit.call(process, code); };`,
    );
    return { env: { NODE_OPTIONS: `--require ${preload}` }, how: () => (existsSync(out) ? readFileSync(out, 'utf8') : 'naturally') };
  };

  // Node's natural exit frees the heap and tears the isolate down first (~1.1 M instructions of every run, Node 26):
  // a hook whose output is written ends through process.exit, with its exit code and every byte it said.
  it('the guard allowing and warning, and the monitor: through process.exit, once all they say is out', { tags: ['hook'] }, async () => {
    const input = { session_id: 's', tool_name: 'Skill', tool_input: { skill: 'deep-dive' } };
    const allow = ended();
    const allowed = await runHook(sandbox(), { ...input, transcript_path: setUp() }, allow.env);
    expect([allowed.exitCode, allowed.stdout, allowed.reason, allow.how()]).toEqual([0, '', 'allow below-ceiling', 'process.exit 0\n']);
    const warn = ended();
    const warned = await runHook(sandbox(), { ...input, transcript_path: setUp(450_000) }, warn.env);
    expect([warned.exitCode, warned.reason, warn.how()]).toEqual([0, 'warn over-ceiling', 'process.exit 0\n']);
    expect(JSON.parse(warned.stdout).hookSpecificOutput.additionalContext).toContain('45%');
    const monitor = ended();
    const monitored = await runHook(
      sandbox(),
      { session_id: 's', transcript_path: setUp(450_000), hook_event_name: 'UserPromptSubmit', prompt: 'next' },
      monitor.env,
      'hook',
      'user-prompt-submit',
    );
    expect([monitored.exitCode, monitored.reason, monitor.how()]).toEqual([0, 'monitor over-ceiling', 'process.exit 0\n']);
    expect(JSON.parse(monitored.stdout).hookSpecificOutput.additionalContext).toContain('<context-monitor');
  });

  it('the status line: through process.exit, its line printed', async () => {
    setUp();
    const status = ended();
    const run = await execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs')], {
      input: readFileSync(join(FIXTURES, 'statusline-after-turn.json'), 'utf8'),
      env: sandbox().env({ CLAUDE_PROJECT_DIR: sandbox().project, ...status.env }),
      extendEnv: false,
      cwd: sandbox().project,
      reject: false,
    });
    expect([run.exitCode, run.stderr, status.how()]).toEqual([0, '', 'process.exit 0\n']);
    expect(run.stdout).toMatch(/^ctx \d+%/);
  });

  it('the check itself sees a natural exit', async () => {
    const check = ended();
    const run = await execa(process.execPath, ['-e', 'process.stdout.write("done")'], {
      env: { ...process.env, ...check.env },
      reject: false,
    });
    expect([run.stdout, check.how()]).toEqual(['done', 'naturally']);
  });
});
