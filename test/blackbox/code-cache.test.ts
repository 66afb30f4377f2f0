/**
 * The hook's code cache, as a user's hooks meet it: kept in the private state directory after the first
 * run that finds one, compiled from in the next process (the cache is not rewritten), and a corrupt or
 * foreign cache never changes a verdict.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { runHook, useProjectSandbox } from '../helpers/sandbox.js';

const { sandbox } = useProjectSandbox();

function setUp(mode = 0o700) {
  const state = join(sandbox().root, 'state');
  mkdirSync(state, { mode });
  chmodSync(state, mode);
  const transcript = sandbox().write('t.jsonl', aTranscript().assistant({ cacheRead: 60_000 }).toString());
  const input = { session_id: 's', transcript_path: transcript, tool_name: 'Skill', tool_input: { skill: 'deep-dive' } };
  const env = { DEV_TEAM_CONTEXT_STATE_DIR: state, DEV_TEAM_CONTEXT_WINDOW: '200000' };
  return { state, cache: join(state, 'code-cache'), run: () => runHook(sandbox(), input, env) };
}

const cacheFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.v8')) : []);

describe('the code cache of the hook bundles', () => {
  it('is written after the first run, then compiled from: the next run leaves it as it was', async () => {
    const { cache, run } = setUp();
    expect((await run()).reason).toBe('allow below-ceiling');
    const [file] = cacheFiles(cache);
    expect(file).toMatch(/^hook-pre-tool-use\.cjs\.\d+\.\d+\.\d+\.v8$/);
    expect(statSync(join(cache, file!)).mode & 0o777).toBe(0o600);
    const before = statSync(join(cache, file!));
    expect((await run()).reason).toBe('allow below-ceiling');
    const after = statSync(join(cache, file!));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]); // V8 took it: nothing rewritten
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
});
