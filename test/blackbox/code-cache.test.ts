/**
 * The hook's code cache, as a user's hooks meet it: kept in the private state directory after the first
 * run that finds one, compiled from in the next process (rewritten only by the first run of another kind, so
 * that it holds that kind's functions too), and a corrupt or foreign cache never changes a verdict.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { FIXTURES, HOOK_BIN, ROOT, runHook, useProjectSandbox, verdictReason } from '../helpers/sandbox.js';

const { sandbox, cli } = useProjectSandbox();

function setUp(mode = 0o700) {
  // The default state directory, where the launcher keeps code (XDG_STATE_HOME may move it; a named one never has code).
  const state = join(sandbox().home, '.local', 'state', 'context-ceiling');
  mkdirSync(state, { recursive: true, mode });
  chmodSync(state, mode);
  const transcript = sandbox().write('t.jsonl', aTranscript().assistant({ cacheRead: 60_000 }).toString());
  const input = { session_id: 's', transcript_path: transcript, tool_name: 'Skill', tool_input: { skill: 'deep-dive' } };
  const env = { DEV_TEAM_CONTEXT_WINDOW: '200000' };
  return {
    state,
    cache: join(state, 'code-cache'),
    input,
    run: (extra: Record<string, string> = {}) => runHook(sandbox(), input, { ...env, ...extra }),
  };
}

const cacheFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.v8k')) : []);
/** The kinds of run a bundle's cache holds (its header), and the file's inode: a rewrite is a new file. */
const cacheOf = (dir: string, bundle: string) => {
  const file = cacheFiles(dir).find((name) => name.startsWith(`${bundle}.`));
  if (file === undefined) return undefined;
  const bytes = readFileSync(join(dir, file));
  return { kinds: bytes.subarray(1, 1 + bytes[0]!).toString(), ino: statSync(join(dir, file)).ino };
};

describe('the code cache of the hook bundles', { tags: ['hook'] }, () => {
  it('is written after the first run, then compiled from: the next run leaves it as it was', async () => {
    const { cache, run } = setUp();
    expect((await run()).reason).toBe('allow below-ceiling');
    const [file] = cacheFiles(cache);
    expect(file).toMatch(
      new RegExp(`^hook-pre-tool-use\\.cjs\\.\\d+\\.\\d+\\.\\d+\\.${process.versions.v8.replaceAll('.', '\\.')}\\.v8k$`),
    );
    expect(statSync(join(cache, file!)).mode & 0o777).toBe(0o600);
    const before = statSync(join(cache, file!));
    expect((await run()).reason).toBe('allow below-ceiling');
    const after = statSync(join(cache, file!));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]); // V8 took it: nothing rewritten
  });

  // A speaking verdict runs from the guard's bundle alone: a second bundle, with its own cache to read, cost a warning
  // more than its lazy functions cost an allow (bench/HISTORY.md, 2026-11-27).
  it('a run of another kind (a warning after allows) writes it once more, holding both; each kind once', async () => {
    const { cache, run } = setUp();
    expect((await run()).reason).toBe('allow below-ceiling');
    expect(cacheOf(cache, 'hook-pre-tool-use.cjs')?.kinds).toBe('allow');
    expect((await run({ DEV_TEAM_CONTEXT_CEILING_PCT: '10' })).reason).toBe('warn over-ceiling');
    expect(cacheOf(cache, 'hook-pre-tool-use.cjs')?.kinds).toBe('allow,warn');
    // Each kind once: another warning and another allow leave the cache as it is.
    expect((await run({ DEV_TEAM_CONTEXT_CEILING_PCT: '10' })).reason).toBe('deduplicated over-ceiling');
    expect((await run()).reason).toBe('allow below-ceiling');
    const block = await run({ DEV_TEAM_CONTEXT_CEILING_PCT: '10', DEV_TEAM_CONTEXT_STRICT: 'on' });
    expect(block.reason).toBe('block over-ceiling-blocked');
    expect(cacheOf(cache, 'hook-pre-tool-use.cjs')?.kinds).toBe('allow,warn,deduplicated,block');
    const settled = cacheOf(cache, 'hook-pre-tool-use.cjs')!.ino;
    expect((await run({ DEV_TEAM_CONTEXT_CEILING_PCT: '10', DEV_TEAM_CONTEXT_STRICT: 'on' })).reason).toBe('block over-ceiling-blocked');
    expect((await run()).reason).toBe('allow below-ceiling');
    expect(cacheOf(cache, 'hook-pre-tool-use.cjs')!.ino).toBe(settled);
    expect(cacheFiles(cache)).toEqual([expect.stringMatching(/^hook-pre-tool-use\.cjs\./)]);
  });

  it('the cache an earlier version kept of its separate voice bundle goes with the next cache written', async () => {
    const { cache, run } = setUp();
    mkdirSync(cache, { mode: 0o700 });
    const retired = join(cache, `guard-voice.cjs.13170.1795770758234.2195642.${process.versions.v8}.v8k`);
    const notOurs = join(cache, 'guard-voice.cjs.notes.txt');
    writeFileSync(retired, 'an earlier cache', { mode: 0o600 });
    writeFileSync(notOurs, 'kept', { mode: 0o600 });
    expect((await run()).reason).toBe('allow below-ceiling');
    expect(existsSync(retired)).toBe(false);
    expect(existsSync(notOurs)).toBe(true);
    expect(cacheFiles(cache)).toEqual([expect.stringMatching(/^hook-pre-tool-use\.cjs\./)]);
  });

  // tsup.config.ts EAGER_DIRECTIVE: the first run of a kind writes the cache, often on a session's first, short
  // transcript; the reader's code for a long one (a line longer than a read, a parsed line past 64 KB, the time budget
  // looked at past the first read) must be in it all the same, or every later run on a long transcript compiles it.
  it.each([
    ['pre-tool-use', 'allow below-ceiling', { tool_name: 'Skill', tool_input: { skill: 'deep-dive' } }],
    ['user-prompt-submit', 'monitor nominal', { prompt: 'next step' }],
  ])(
    '%s: a cache a short transcript wrote holds what a run over a long one compiles (nothing compiled lazily)',
    async (event, reason, fields) => {
      setUp();
      const short = sandbox().write('short.jsonl', aTranscript().user('hi').assistant({ cacheRead: 60_000 }).toString());
      const long = sandbox().write(
        'long.jsonl',
        aTranscript()
          .user('write it')
          .assistant({ cacheRead: 60_000, toolUse: { name: 'Write', input: { file_path: 'a.ts', content: 'x'.repeat(100_000) } } })
          .toolResult(300_000)
          .attachment(13_000)
          .noise()
          .toString(),
      );
      // V8's own record of what it compiled, rewritten by each run: the same flags every time (the file's name too),
      // or V8 refuses the cache (its flag hash).
      const log = join(sandbox().root, 'v8.log');
      const run = async (transcript: string) => {
        const debug = join(sandbox().root, `debug-${Math.random().toString(36).slice(2)}.log`);
        const flags = ['--log-function-events', `--logfile=${log}`, '--no-logfile-per-isolate'];
        const result = await execa(process.execPath, [...flags, HOOK_BIN, event], {
          input: JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: sandbox().project, ...fields }),
          env: sandbox().env({ CLAUDE_PROJECT_DIR: sandbox().project, DEV_TEAM_CONTEXT_DEBUG: debug }),
          extendEnv: false,
          cwd: sandbox().project,
          reject: false,
        });
        expect(result.exitCode).toBe(0);
        return { debug: readFileSync(debug, 'utf8'), compiled: compiledFrom(readFileSync(log, 'utf8'), `hook-${event}.cjs`) };
      };
      const first = await run(short);
      expect(first.debug).toContain(`verdict ${event}: ${reason}`);
      expect(first.compiled.fromCache).toBe(false); // no cache yet: this run writes it
      const second = await run(long);
      expect(second.debug).toContain(`verdict ${event}: ${reason}`);
      expect(Number(/scanned=(\d+)/.exec(second.debug)?.[1])).toBeGreaterThan(300_000); // past the tool result: the long path ran
      expect(second.compiled.fromCache).toBe(true);
      expect(second.compiled.lazily).toEqual([]);
    },
  );

  // io/run-shape.ts: a cache is written once per kind, most often by a user's first runs (a monitor before any
  // compaction, a start in a project without checkpoints); what a later run does with checkpoints of ours was then
  // compiled from source on every such run (1.2 M instructions a prompt, 1.8 M a start over 64 sessions' folders).
  /** One hook run with V8's log (the same flags every run, or V8 refuses the cache): its verdict, what it compiled, the cache after it. */
  const logged = (cache: string) => {
    const transcript = sandbox().write('short.jsonl', aTranscript().user('hi').assistant({ cacheRead: 60_000 }).toString());
    const log = join(sandbox().root, 'v8.log');
    let runs = 0;
    return async (event: 'session-start' | 'pre-compact' | 'user-prompt-submit', session: string) => {
      runs += 1;
      const debug = join(sandbox().root, `debug-logged-${runs}.log`);
      const fields = {
        'session-start': { source: 'startup' },
        'pre-compact': { trigger: 'auto', custom_instructions: null },
        'user-prompt-submit': { prompt: 'next step' },
      }[event];
      const result = await execa(
        process.execPath,
        ['--log-function-events', `--logfile=${log}`, '--no-logfile-per-isolate', HOOK_BIN, event],
        {
          input: JSON.stringify({ session_id: session, transcript_path: transcript, cwd: sandbox().project, ...fields }),
          env: sandbox().env({ CLAUDE_PROJECT_DIR: sandbox().project, DEV_TEAM_CONTEXT_DEBUG: debug }),
          extendEnv: false,
          cwd: sandbox().project,
          reject: false,
        },
      );
      expect(result.exitCode).toBe(0);
      return {
        reason: verdictReason(readFileSync(debug, 'utf8'), event),
        compiled: compiledFrom(readFileSync(log, 'utf8'), `hook-${event}.cjs`),
        cache: cacheOf(cache, `hook-${event}.cjs`),
      };
    };
  };

  it('SessionStart: a cache a project without checkpoints wrote is written once more by the first start that has some', async () => {
    const { cache } = setUp();
    const run = logged(cache);
    const bare = await run('session-start', 'first');
    expect(bare.reason).toBe('no-checkpoint-to-resume');
    expect(bare.cache?.kinds).toBe('no-checkpoint-to-resume');
    expect((await run('pre-compact', 'compacted')).reason).toBe('checkpoint cx-001');
    // The next start resumes that checkpoint, the one after finds it taken: each reads our records and looks through the folder.
    const resumed = await run('session-start', 'resumed');
    expect(resumed.reason).toBe('resumption-context');
    expect(resumed.cache?.kinds).toBe('no-checkpoint-to-resume,resumption-context/records/scan');
    const taken = await run('session-start', 'taken');
    expect(taken.reason).toBe('no-checkpoint-to-resume');
    expect(taken.cache?.kinds).toBe('no-checkpoint-to-resume,resumption-context/records/scan,no-checkpoint-to-resume/records/scan');
    const later = await run('session-start', 'later');
    expect(later.reason).toBe('no-checkpoint-to-resume');
    expect(later.compiled.fromCache).toBe(true);
    expect(later.compiled.lazily).toEqual([]); // without the marks: the records' and the folders' functions, on every start
    expect(later.cache?.ino).toBe(taken.cache?.ino);
    // A start with less to look at (no folder left, the records kept) is covered by that cache: nothing is written again.
    rmSync(join(sandbox().project, '.claude', 'context-ceiling', 'checkpoints'), { recursive: true });
    expect((await run('session-start', 'fewer')).reason).toBe('no-checkpoint-to-resume');
    expect(cacheOf(cache, 'hook-session-start.cjs')?.ino).toBe(taken.cache?.ino);
  });

  it('the monitor: a cache written before any compaction is written once more by the first prompt of a session that compacted', async () => {
    const { cache } = setUp();
    const run = logged(cache);
    const bare = await run('user-prompt-submit', 'fresh');
    expect(bare.reason).toBe('monitor nominal');
    expect(bare.cache?.kinds).toBe('monitor');
    expect((await run('pre-compact', 'compacted')).reason).toBe('checkpoint cx-001');
    // Its next prompt brings the compaction alert (a kind of its own), the prompts after it the monitor alone.
    const alert = await run('user-prompt-submit', 'compacted');
    expect(alert.reason).toBe('monitor+compaction-alert nominal');
    expect(alert.cache?.kinds).toBe('monitor,monitor+compaction-alert/records');
    const first = await run('user-prompt-submit', 'compacted');
    expect(first.reason).toBe('monitor nominal');
    expect(first.cache?.kinds).toBe('monitor,monitor+compaction-alert/records,monitor/records');
    const next = await run('user-prompt-submit', 'compacted');
    expect(next.compiled.fromCache).toBe(true);
    expect(next.compiled.lazily).toEqual([]); // without the mark: the session's checkpoints read with code compiled on every prompt
    // A prompt of a session without checkpoints is covered by it: nothing is written again.
    expect((await run('user-prompt-submit', 'another')).reason).toBe('monitor nominal');
    expect(cacheOf(cache, 'hook-user-prompt-submit.cjs')?.ino).toBe(first.cache?.ino);
  });

  it('a corrupt cache changes nothing the hook says, and is replaced', async () => {
    const { cache, run } = setUp();
    await run();
    const [file] = cacheFiles(cache);
    writeFileSync(join(cache, file!), 'garbage, not a V8 code cache');
    const again = await run();
    expect(again.reason).toBe('allow below-ceiling');
    expect(again.stdout).toBe('');
    expect(readFileSync(join(cache, file!), 'utf8')).not.toBe('garbage, not a V8 code cache');
  });

  it.each([0o777, 0o755])('nothing is cached in a state directory of mode %o, and the verdict is the same', async (mode) => {
    const { state, run } = setUp(mode);
    expect((await run()).reason).toBe('allow below-ceiling');
    expect((await run()).reason).toBe('allow below-ceiling');
    expect(readdirSync(state)).toEqual([]);
  });

  it('nothing is cached in a state directory DEV_TEAM_CONTEXT_STATE_DIR names: a repository may have supplied it', async () => {
    const named = join(sandbox().root, 'named-state');
    mkdirSync(named, { mode: 0o700 });
    const { cache, run } = setUp();
    expect((await run({ DEV_TEAM_CONTEXT_STATE_DIR: named })).reason).toBe('allow below-ceiling');
    expect(cacheFiles(join(named, 'code-cache'))).toEqual([]);
    expect(cacheFiles(cache)).toEqual([]); // nor in the default one, when the variable points elsewhere
  });

  it("cached under $XDG_STATE_HOME/context-ceiling: the user's own (Claude Code never takes it from a project's settings)", async () => {
    const xdg = join(sandbox().root, 'xdg');
    mkdirSync(join(xdg, 'context-ceiling'), { recursive: true, mode: 0o700 });
    const { run } = setUp();
    expect((await run({ XDG_STATE_HOME: xdg })).reason).toBe('allow below-ceiling');
    expect(cacheFiles(join(xdg, 'context-ceiling', 'code-cache')).length).toBeGreaterThan(0);
  });

  it('a missing event bundle lets everything through, but says so on stderr and keeps the last error', async () => {
    const { state } = setUp();
    const runtime = dirname(HOOK_BIN);
    // Run a copy of the runtime without the guard's bundle.
    const copy = join(sandbox().root, 'runtime');
    cpSync(runtime, copy, { recursive: true });
    rmSync(join(copy, 'hook-pre-tool-use.cjs'));
    const result = await execa('node', [join(copy, 'hook.cjs'), 'pre-tool-use'], {
      input: JSON.stringify({ session_id: 's', tool_name: 'Skill', tool_input: { skill: 'x' } }),
      env: sandbox().env({}),
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^context-ceiling: the pre-tool-use hook failed and let everything through: .*hook-pre-tool-use\.cjs/);
    expect(JSON.parse(readFileSync(join(state, 'last-error.json'), 'utf8'))).toMatchObject({ event: 'pre-tool-use' });
  });
});

describe('the code cache of the CLI (cli-main.cjs, ~330 KB: compiling it from source costs about half a Node start)', () => {
  const transcriptArgs = () => ['--transcript', setUp().input.transcript_path];

  it('is kept after the first run of each command, compiled from after: the same output, nothing rewritten', async () => {
    const args = transcriptArgs();
    const cache = join(sandbox().home, '.local', 'state', 'context-ceiling', 'code-cache');
    const first = await cli(['status', ...args]);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toContain('Occupancy   60,005 tokens');
    expect(cacheOf(cache, 'cli-main.cjs')?.kinds).toBe('status');
    const written = cacheOf(cache, 'cli-main.cjs')!.ino;
    expect(await cli(['status', ...args])).toEqual(first);
    expect(cacheOf(cache, 'cli-main.cjs')!.ino).toBe(written); // V8 took it: nothing rewritten
    // Another command holds its own functions from its first run on; help, the version and a typo are one kind.
    expect((await cli(['replay', '--json', '--runtime', 'node', sandbox().root])).exitCode).toBe(0);
    expect((await cli(['--version'])).exitCode).toBe(0);
    expect((await cli(['no-such-command'])).exitCode).toBe(1);
    expect(cacheOf(cache, 'cli-main.cjs')?.kinds).toBe('status,replay,help');
  });

  it('a corrupt one changes no output, and is replaced', async () => {
    const args = transcriptArgs();
    const cache = join(sandbox().home, '.local', 'state', 'context-ceiling', 'code-cache');
    const first = await cli(['status', ...args]);
    const file = cacheFiles(cache).find((name) => name.startsWith('cli-main.cjs.'))!;
    writeFileSync(join(cache, file), 'garbage, not a V8 code cache');
    expect(await cli(['status', ...args])).toEqual(first);
    expect(cacheOf(cache, 'cli-main.cjs')?.kinds).toBe('status');
  });

  it('none where the state directory is open to others, and none that makes one: the CLI then runs as before', async () => {
    const open = setUp(0o755);
    const run = await cli(['status', '--transcript', open.input.transcript_path]);
    expect(run.stdout).toContain('Occupancy   60,005 tokens');
    expect(readdirSync(open.state)).toEqual([]);
    rmSync(open.state, { recursive: true });
    expect((await cli(['status', '--transcript', open.input.transcript_path])).stdout).toBe(run.stdout);
    expect(existsSync(open.state)).toBe(false);
  });
});

describe('the code cache of the status line (statusline-main.cjs: Claude Code starts one after every turn)', () => {
  const statusLine = (extra: Record<string, string> = {}, fixture = 'statusline-after-turn.json') =>
    execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs')], {
      input: readFileSync(join(FIXTURES, fixture), 'utf8'),
      env: sandbox().env({ CLAUDE_PROJECT_DIR: sandbox().project, ...extra }),
      extendEnv: false,
      cwd: sandbox().project,
      reject: false,
    });

  it('is kept after the first line, compiled from after: the same line, nothing rewritten', async () => {
    const { cache } = setUp();
    const first = await statusLine();
    expect([first.exitCode, first.stderr]).toEqual([0, '']);
    expect(first.stdout).toMatch(/^ctx \d+%/);
    expect(cacheOf(cache, 'statusline-main.cjs')?.kinds).toBe('statusline');
    const written = cacheOf(cache, 'statusline-main.cjs')!.ino;
    const again = await statusLine();
    expect([again.exitCode, again.stdout, again.stderr]).toEqual([0, first.stdout, '']);
    expect(cacheOf(cache, 'statusline-main.cjs')!.ino).toBe(written); // V8 took it: nothing rewritten
    // Before a session's first turn Claude Code gives no usage, and the line reads the transcript: a kind of its own.
    const before = await statusLine({}, 'statusline-before-first-turn.json');
    expect([before.exitCode, before.stderr]).toEqual([0, '']);
    expect(cacheOf(cache, 'statusline-main.cjs')?.kinds).toBe('statusline,transcript');
  });

  it('a corrupt one changes nothing the line says, and is replaced; none in an open state directory', async () => {
    const { cache } = setUp();
    const first = await statusLine();
    const file = cacheFiles(cache).find((name) => name.startsWith('statusline-main.cjs.'))!;
    writeFileSync(join(cache, file), 'garbage, not a V8 code cache');
    expect((await statusLine()).stdout).toBe(first.stdout);
    expect(cacheOf(cache, 'statusline-main.cjs')?.kinds).toBe('statusline');
    rmSync(cache, { recursive: true });
    chmodSync(join(cache, '..'), 0o755);
    expect((await statusLine()).stdout).toBe(first.stdout);
    expect(existsSync(cache)).toBe(false);
  });
});

/**
 * From V8's log (--log-function-events): whether `bundle` was compiled from a code cache, and the source ranges of
 * its functions compiled after that, on their first call.
 */
function compiledFrom(log: string, bundle: string): { fromCache: boolean; lazily: string[] } {
  const lines = log.split('\n').map((line) => line.split(','));
  const ids = new Set(lines.filter((f) => f[0] === 'script-details' && f[2]?.endsWith(`/${bundle}`)).map((f) => f[1]));
  expect(ids.size, `${bundle} in V8's log`).toBe(1);
  const ofBundle = (f: string[]) => ids.has(f[2]);
  return {
    fromCache: lines.some((f) => f[0] === 'script' && f[1] === 'deserialize' && ofBundle(f)),
    lazily: lines
      .filter((f) => f[0] === 'function' && f[1] === 'parse-function' && ofBundle(f))
      .map((f) => `${f[3]}-${f[4]} ${f[7] ?? ''}`),
  };
}
