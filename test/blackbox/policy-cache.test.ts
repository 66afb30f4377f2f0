// @module-tag hook
/**
 * A policy file is validated once per text (io/policy-cache.ts): zod (policy-parse.cjs) costs a hook run ~30 % of
 * a Node start, and `config set` is how a team configures the guard. Every edit must still count at once, and a kept
 * answer must never outlive the text, the path or the validator it was made for.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { execa } from 'execa';
import { FIXTURES, ROOT, runHook, useProjectSandbox } from '../helpers/sandbox.js';

const { sandbox } = useProjectSandbox();

const stateDir = () => join(sandbox().home, '.local', 'state', 'context-ceiling');
const keptFiles = () =>
  existsSync(join(stateDir(), 'code-cache'))
    ? readdirSync(join(stateDir(), 'code-cache')).filter((name) => name.startsWith('policy.'))
    : [];

/** The private state directory a user has after the first run, a user policy file, and a transcript at 30 % of the default window. */
function setUp(policy: string) {
  mkdirSync(stateDir(), { recursive: true, mode: 0o700 });
  sandbox().write('home/.claude/context-ceiling.json', policy);
  return sandbox().write('t.jsonl', aTranscript().assistant({ cacheRead: 300_000 }).toString());
}

/** The kept answer's file: its inode changes each time an answer is kept (written anew and renamed into place). */
const keptInode = () => {
  const [name] = keptFiles();
  return name === undefined ? undefined : statSync(join(stateDir(), 'code-cache', name)).ino;
};

/**
 * One guard call, and whether it validated the file: it did unless it left the kept answer as it was. Under Node a
 * preload also lists the modules the run loaded, which must agree (the validator, policy-parse.cjs, loaded or not);
 * Bun ignores NODE_OPTIONS, so there the kept file alone tells.
 */
async function guard(transcript: string, session = 's') {
  const before = keptInode();
  const out = join(sandbox().root, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  const preload = sandbox().write(
    'loaded.cjs',
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, Object.keys(require.cache).join('\\n')));`,
  );
  const run = await runHook(
    sandbox(),
    { session_id: session, transcript_path: transcript, tool_name: 'Skill', tool_input: { skill: 'deep-dive' } },
    { NODE_OPTIONS: `--require ${preload}` },
  );
  const after = keptInode();
  const validated = after === undefined || after !== before;
  if (!process.env.CC_HOOK_RUNTIME?.includes('bun')) expect(readFileSync(out, 'utf8').includes('policy-parse.cjs')).toBe(validated);
  return { reason: run.reason, stdout: run.stdout, validated };
}

describe('a policy file is validated once per text', () => {
  it('the first run validates it and keeps the answer; later runs answer from it, without loading the validator', async () => {
    const transcript = setUp('{ "ceilingPct": 25 }\n');
    expect(await guard(transcript)).toMatchObject({ reason: 'warn over-ceiling', validated: true });
    expect(keptFiles()).toHaveLength(1);
    for (let run = 0; run < 2; run++)
      expect(await guard(transcript)).toMatchObject({ reason: 'deduplicated over-ceiling', validated: false });
  });

  it('an edit counts at once, even one of the same size within the same second', async () => {
    const transcript = setUp('{ "ceilingPct": 25 }\n');
    await guard(transcript);
    sandbox().write('home/.claude/context-ceiling.json', '{ "ceilingPct": 35 }\n');
    expect(await guard(transcript)).toMatchObject({ reason: 'allow below-ceiling', validated: true });
    expect(await guard(transcript)).toMatchObject({ reason: 'allow below-ceiling', validated: false });
    expect(keptFiles()).toHaveLength(1); // one file per policy path, replaced
  });

  it('an invalid file is answered the same from the kept answer: ignored, and the person told', async () => {
    const transcript = setUp('{ "ceilingPct": "thirty" }\n');
    // Each in a new session: the notice that a file was ignored is told once a session.
    const first = await guard(transcript, 'first');
    expect(first.validated).toBe(true);
    const again = await guard(transcript, 'again');
    expect(again).toMatchObject({ reason: first.reason, validated: false });
    expect(again.stdout).toBe(first.stdout);
    expect(first.reason).toBe('allow below-ceiling +notice'); // the default 40 % ceiling, the file ignored
    expect(first.stdout).toContain('ceilingPct');
  });

  it('a kept answer for another text, or not ours in shape, is not used: the file is validated again', async () => {
    const transcript = setUp('{ "ceilingPct": 25 }\n');
    await guard(transcript);
    const [name] = keptFiles();
    const file = join(stateDir(), 'code-cache', name!);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    // An answer that loosens the ceiling, kept for a text that is not the file's: never applied to this text.
    writeFileSync(file, JSON.stringify({ ...kept, text: '{ "ceilingPct": 99 }\n', result: { kind: 'ok', file: { ceilingPct: 99 } } }));
    expect(await guard(transcript)).toMatchObject({ reason: 'deduplicated over-ceiling', validated: true });
    writeFileSync(file, '{ not json');
    expect(await guard(transcript)).toMatchObject({ reason: 'deduplicated over-ceiling', validated: true });
    writeFileSync(file, JSON.stringify({ ...kept, result: { kind: 'ok' } }));
    expect(await guard(transcript)).toMatchObject({ reason: 'deduplicated over-ceiling', validated: true });
  });

  it('with no private state directory nothing is kept: each run validates', async () => {
    const transcript = setUp('{ "ceilingPct": 25 }\n');
    chmodSync(stateDir(), 0o755); // open to others: not a place for code or kept answers
    // The policy still counts (a warning at 25 %), said every time since nothing can be remembered either.
    expect(await guard(transcript)).toMatchObject({ reason: 'warn over-ceiling unremembered', validated: true });
    expect(await guard(transcript)).toMatchObject({ reason: 'warn over-ceiling unremembered', validated: true });
    expect(readdirSync(stateDir())).toEqual([]);
  });

  it('the status line, after every turn, answers from the kept validation too', async () => {
    setUp('{ "ceilingPct": 25 }\n');
    const input = readFileSync(join(FIXTURES, 'statusline-after-turn.json'), 'utf8');
    const line = async () => {
      const before = keptInode();
      const out = join(sandbox().root, `loaded-${Math.random().toString(36).slice(2)}.txt`);
      const preload = sandbox().write(
        'loaded.cjs',
        `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, Object.keys(require.cache).join('\\n')));`,
      );
      const run = await execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs')], {
        input,
        env: sandbox().env({ NODE_OPTIONS: `--require ${preload}` }),
        extendEnv: false,
        cwd: sandbox().project,
      });
      const validated = readFileSync(out, 'utf8').includes('policy-parse.cjs');
      expect(keptInode() === undefined || keptInode() !== before).toBe(validated);
      return { stdout: run.stdout, validated };
    };
    // 121,005 of 1,000,000 tokens: the line counts to the file's 25 % ceiling, validated once.
    expect(await line()).toEqual({ stdout: expect.stringContaining('to the 25% ceiling'), validated: true });
    expect(await line()).toEqual({ stdout: expect.stringContaining('to the 25% ceiling'), validated: false });
  });
});
