// @module-tag hook
/**
 * Which of Node's own functions a hook calls, path by path: Node compiles each of its JavaScript functions from
 * source the first time a process calls it (~0.05-0.1 M instructions each, of a hook's ~95 M), so the paths a
 * session runs all the time keep to one way of doing each thing (bench/RESULTS.md, issue 18).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { context } from '../helpers/hook-events.js';
import { ROOT, runHook, useProjectSandbox } from '../helpers/sandbox.js';

const { sandbox } = useProjectSandbox();

/**
 * A preload that notes each avoidable call a run makes (a name per kind; the calls Node itself makes while
 * loading the launcher, before the hook's first line, included).
 */
const PRELOAD = `const fs = require('fs');
const seen = new Set();
const note = (obj, key, name, when = () => true) => {
  const original = obj[key];
  obj[key] = function (...args) {
    if (when(...args)) seen.add(name);
    return original.apply(this, args);
  };
};
note(process, 'once', 'process.once');
note(fs, 'readFileSync', 'readFileSync without an encoding', (file, options) => options === undefined);
note(Buffer.prototype, 'toString', 'Buffer#toString naming an encoding', (encoding) => encoding !== undefined);
note(fs, 'readdirSync', 'readdirSync withFileTypes', (dir, options) => options?.withFileTypes === true);
// One listing a folder and run: SessionStart's resumption and its scan share theirs (checkpoints/store.ts).
const listed = new Map();
const again = (dir) => {
  listed.set(String(dir), (listed.get(String(dir)) ?? 0) + 1);
  return listed.get(String(dir)) === 2;
};
note(fs, 'readdirSync', 'a folder listed twice', again);
note(fs, 'opendirSync', 'a folder listed twice', again);
// A folder the run has just made holds nothing to list (checkpoints/store.ts writeNewCheckpoint).
const made = new Set();
note(fs, 'mkdirSync', 'mkdirSync', (dir) => made.add(String(dir)) && false);
note(fs, 'readdirSync', 'a folder listed right after it was made', (dir) => made.has(String(dir)));
// An open file's size is known from the fstat its open took (io/read-safe.ts openRegularFile).
const fstats = new Map();
note(fs, 'closeSync', 'closeSync', (fd) => fstats.delete(fd) && false);
note(fs, 'fstatSync', 'a file fstat-ed twice', (fd) => {
  fstats.set(fd, (fstats.get(fd) ?? 0) + 1);
  return fstats.get(fd) === 2;
});
// A project's checkpoint records, read whole: once a run is enough (checkpoints/provenance.ts).
const reads = new Map();
note(fs, 'openSync', 'a records file read twice', (path, flags) => {
  if (typeof path !== 'string' || !/[\\/]checkpoints[\\/][0-9a-f]{32}[.]jsonl$/.test(path) || (flags & 3) !== 0) return false;
  reads.set(path, (reads.get(path) ?? 0) + 1);
  return reads.get(path) === 2;
});
// A checkpoint file opened to be read, where a test asks.
if (process.env.NOTE_CHECKPOINT_READS)
  note(fs, 'openSync', 'a checkpoint file read', (path, flags) => /cx-\\d+-checkpoint[.]json$/.test(String(path)) && (flags & 3) === 0);
// SHA-256 is WebAssembly (core/sha256.ts): a compressor set up means something was hashed.
const Wasm = WebAssembly.Module;
WebAssembly.Module = function (...args) {
  seen.add('WebAssembly.Module');
  return new Wasm(...args);
};
process.on('exit', () => fs.writeFileSync(process.env.CALLS_OUT, [...seen].sort().join('\\n')));`;

async function avoidableCalls(event: string, input: Record<string, unknown>, env: Record<string, string> = {}) {
  const out = join(sandbox().root, `calls-${Math.random().toString(36).slice(2)}.txt`);
  const preload = sandbox().write('calls.cjs', PRELOAD);
  const run = await runHook(sandbox(), input, { NODE_OPTIONS: `--require ${preload}`, CALLS_OUT: out, ...env }, 'hook', event);
  return { run, calls: readFileSync(out, 'utf8').split('\n').filter(Boolean) };
}

function transcriptAt(tokens: number) {
  // The private state directory a user has after the first run: the launcher compiles from its code cache.
  mkdirSync(join(sandbox().home, '.local', 'state', 'context-ceiling'), { recursive: true, mode: 0o700 });
  return sandbox().write(`t-${tokens}.jsonl`, aTranscript().assistant({ cacheRead: tokens }).toString());
}

/** A session's first compaction in the sandbox's project (PreCompact, checked): its checkpoint, recorded as ours. */
async function firstCompaction(session: string, transcript_path: string) {
  const compacted = await runHook(
    sandbox(),
    { session_id: session, transcript_path, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null },
    { CLAUDE_PROJECT_DIR: sandbox().project },
    'hook',
    'pre-compact',
  );
  expect(compacted.reason).toBe('checkpoint cx-001');
}

describe("the avoidable Node calls of a hook's common paths", () => {
  it('each bundle requires node:fs and node:path once, not once per module that imports them (tsup.config.ts)', () => {
    const dist = join(ROOT, 'plugin', 'dist');
    const requires = readdirSync(dist)
      .filter((name) => name.endsWith('.cjs'))
      .map((name) => {
        const text = readFileSync(join(dist, name), 'utf8');
        const count = (builtin: string) => text.split(`require("${builtin}")`).length + text.split(`require("node:${builtin}")`).length - 2;
        return [name, count('fs') <= 1, count('path') <= 1];
      });
    expect(requires).toEqual(requires.map(([name]) => [name, true, true]));
  });

  it('the guard allowing, compiled from the code cache: none', async () => {
    const input = { tool_name: 'Skill', tool_input: { skill: 'deep-dive' }, transcript_path: transcriptAt(60_000), session_id: 's' };
    const first = await avoidableCalls('pre-tool-use', input);
    expect(first.run.reason).toBe('allow below-ceiling');
    const cached = await avoidableCalls('pre-tool-use', input);
    expect(cached.run.reason).toBe('allow below-ceiling');
    expect(cached.calls).toEqual([]);
  });

  it('the monitor, SessionStart, PostCompact and PostToolUse, compiled from the code cache: none', async () => {
    const transcript_path = transcriptAt(60_000);
    const runs: Array<[string, Record<string, unknown>, string]> = [
      ['user-prompt-submit', { prompt: 'go on' }, 'monitor nominal'],
      ['session-start', { source: 'startup' }, 'no-checkpoint-to-resume'],
      ['post-compact', { trigger: 'auto', compact_summary: 'Summary.' }, 'no-checkpoint'],
      [
        'post-tool-use',
        { tool_name: 'Write', tool_input: { file_path: join(sandbox().project, 'a.ts'), content: 'x' } },
        'not-the-orchestration-file',
      ],
    ];
    for (const [event, fields, reason] of runs) {
      const input = { session_id: 's', transcript_path, ...fields };
      await avoidableCalls(event, input); // writes the code cache
      const cached = await avoidableCalls(event, input);
      expect([event, cached.run.reason, cached.calls]).toEqual([event, reason, []]);
    }
  });

  it('a warning whose voice comes from the code cache: no exit listener (the caches are kept after the run), no Dirent', async () => {
    const input = { tool_name: 'Skill', tool_input: { skill: 'deep-dive' }, transcript_path: transcriptAt(450_000) };
    const first = await avoidableCalls('pre-tool-use', { ...input, session_id: 's1' });
    expect(first.run.reason).toBe('warn over-ceiling');
    expect(first.calls).not.toContain('process.once'); // no cache yet: written when the run is over, by the entry
    const cached = await avoidableCalls('pre-tool-use', { ...input, session_id: 's2' });
    expect(cached.run.reason).toBe('warn over-ceiling');
    expect(cached.calls).toEqual([]);
  });

  it("the monitor hashes the project's folder once a session, not on every prompt: its mark keeps the key, a garbled one is never used", async () => {
    const transcript_path = transcriptAt(60_000);
    await firstCompaction('s', transcript_path);
    const input = { session_id: 's', transcript_path, hook_event_name: 'UserPromptSubmit', prompt: 'go on' };
    const prompt = () => avoidableCalls('user-prompt-submit', input, { CLAUDE_PROJECT_DIR: sandbox().project });
    const first = await prompt(); // writes the code cache and the mark, key included
    expect(first.run.reason).toBe('monitor+compaction-alert nominal');
    const mark = join(sandbox().home, '.local', 'state', 'context-ceiling', 'sessions', 's', 'monitor.json');
    const project = realpathSync(sandbox().project);
    const key = createHash('sha256').update(project).digest('hex').slice(0, 32);
    expect(JSON.parse(readFileSync(mark, 'utf8')).records).toEqual({ dir: project, key });

    const later = await prompt();
    expect(later.run.reason).toBe('monitor nominal');
    expect(context(later.run)).toContain('Compactions: 1. Last checkpoint: cx-001');
    expect(later.calls).toEqual([]);

    // A key that is not one recordsKey gives (here a way out of the records folder) is not used: the folder is hashed again.
    writeFileSync(mark, JSON.stringify({ ...JSON.parse(readFileSync(mark, 'utf8')), records: { dir: project, key: '../../../../tmp/x' } }));
    const garbled = await prompt();
    expect(garbled.run.reason).toBe('monitor nominal');
    expect(context(garbled.run)).toContain('Compactions: 1. Last checkpoint: cx-001');
    expect(garbled.calls).toEqual(['WebAssembly.Module']);
    expect(JSON.parse(readFileSync(mark, 'utf8')).records).toEqual({ dir: project, key });
  });

  it("SessionStart reads the project's checkpoint records once, for the resumption and the count of files not ours", async () => {
    const transcript_path = transcriptAt(60_000);
    const env = { CLAUDE_PROJECT_DIR: sandbox().project };
    await firstCompaction('earlier', transcript_path);
    const start = (session: string) =>
      avoidableCalls('session-start', { session_id: session, transcript_path, hook_event_name: 'SessionStart', source: 'startup' }, env);
    await start('first'); // writes the code cache, and takes the earlier session's checkpoint
    const resumed = await start('next');
    expect(resumed.run.reason).toBe('no-checkpoint-to-resume');
    // A new session has no mark to take the records key from: the project's folder is hashed, once. The checkpoint
    // folders are listed with their entries' types (whether a recorded checkpoint is still a file), each once.
    expect(resumed.calls).toEqual(['WebAssembly.Module', 'readdirSync withFileTypes']);
  });

  it("PreCompact of a session's first checkpoint, compiled from the code cache: its new folder is not listed, the transcript fstat-ed once", async () => {
    const transcript_path = transcriptAt(60_000);
    await firstCompaction('one', transcript_path); // writes the code cache
    const input = { session_id: 'two', transcript_path, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null };
    const second = await avoidableCalls('pre-compact', input, { CLAUDE_PROJECT_DIR: sandbox().project });
    expect(second.run.reason).toBe('checkpoint cx-001');
    // The checkpoint's bytes are hashed (SHA-256, by WebAssembly): what its record names them by.
    expect(second.calls).toEqual(['WebAssembly.Module']);
    // A folder there already is listed (its highest number): the session's next checkpoint is cx-002.
    const next = await avoidableCalls('pre-compact', input, { CLAUDE_PROJECT_DIR: sandbox().project });
    expect(next.run.reason).toBe('checkpoint cx-002');
    expect(next.calls).toEqual(['WebAssembly.Module']);
  });

  it('SessionStart reads and hashes our recorded checkpoints once, not at every start, and still finds one rewritten since', async () => {
    const transcript_path = transcriptAt(60_000);
    const env = { CLAUDE_PROJECT_DIR: sandbox().project, NOTE_CHECKPOINT_READS: '1' };
    for (const session of ['one', 'two', 'three']) await firstCompaction(session, transcript_path);
    const start = (session: string) =>
      avoidableCalls('session-start', { session_id: session, transcript_path, hook_event_name: 'SessionStart', source: 'startup' }, env);
    expect((await start('first')).run.reason).toBe('resumption-context'); // reads them all, and acknowledges them
    const again = await start('second');
    expect(again.run.reason).toBe('no-checkpoint-to-resume');
    // The project's folder, hashed for its records key; each of the three session folders listed once; no checkpoint read.
    expect(again.calls).toEqual(['WebAssembly.Module', 'readdirSync withFileTypes']);

    // One of ours rewritten since: its change time moved, so its bytes are read, and it is no longer ours.
    const rewritten = join(sandbox().project, '.claude', 'context-ceiling', 'checkpoints', 'two', 'cx-001-checkpoint.json');
    writeFileSync(rewritten, readFileSync(rewritten, 'utf8').replace('"cx-001"', '"cx-009"'));
    const after = await start('third');
    expect(after.run.reason).toBe('no-checkpoint-to-resume+notice found-not-ours=1');
    expect(after.calls).toEqual(['WebAssembly.Module', 'a checkpoint file read', 'readdirSync withFileTypes']);
  });
});
