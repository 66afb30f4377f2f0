// @module-tag hook
/**
 * Which window the guard judges against, run as Claude Code runs the hooks, nothing configured but
 * strict unless a test says so: the session's model gives the window (Claude Code's own table), a
 * `[1m]` in its model attachment picks the 1M variant, what Claude Code reported for the session wins,
 * evidence beats every source, and an assumed window never blocks.
 */
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { appendWhenWaiting, expectBlocked, expectNotice, expectSilent, expectWarned, STRICT } from '../helpers/guard-runners.js';
import { HOOK_BIN, makeSandbox, preToolUse, runHook, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
  sandbox.write('home/.claude/skills/context-summarization/SKILL.md', '---\nname: context-summarization\ndescription: d\n---\n');
});
afterEach(() => sandbox.cleanup());

const STATE_THE_WINDOW = "DEV_TEAM_CONTEXT_WINDOW=1000000 (your model's window in tokens)";
const guard = (input: unknown, env: Record<string, string> = STRICT) => runHook(sandbox, input, env);
const state = () => join(sandbox.home, '.local', 'state', 'context-ceiling');

/** A session on `model` whose newest turn holds `tokens`; `attachment`: the model attachment Claude Code wrote at its start. */
function session(tokens: number, model: string, attachment?: string, name = 's') {
  const t = aTranscript();
  if (attachment !== undefined) t.modelAttachment(attachment);
  return sandbox.write(
    `claude/${name}.jsonl`,
    t
      .user('go')
      .assistant({ cacheRead: tokens - 5, model })
      .toString(),
  );
}
const skill = (path: string, session_id = 's') => preToolUse(path, 'Skill', { skill: 'deep-dive' }, { session_id });

function runStatusLine(input: unknown) {
  return execa(process.execPath, [HOOK_BIN.replace('hook.cjs', 'statusline.cjs')], {
    input: JSON.stringify(input),
    env: sandbox.env(),
    extendEnv: false,
    cwd: sandbox.project,
    reject: false,
  });
}

const statusInput = (sessionId: string, model: string, window: number) => ({
  session_id: sessionId,
  transcript_path: join(sandbox.root, 'claude', `${sessionId}.jsonl`),
  model: { id: model, display_name: model },
  version: '2.1.331',
  context_window: { context_window_size: window, current_usage: null, used_percentage: null },
});

describe("the session's model gives the window, with nothing configured", () => {
  it('the default model at 10 %: silent, even strict', async () => {
    expectSilent(await guard(skill(session(100_000, 'claude-opus-5-5', 'claude-opus-5-5'))), 'allow below-ceiling');
  });

  it('the default model at 45 %, strict: blocked, naming the model', async () => {
    const { model } = expectBlocked(await guard(skill(session(450_000, 'claude-opus-5-5', 'claude-opus-5-5'))));
    expect(model).toContain('45% (450,000 of 1,000,000 tokens; window: model claude-opus-5-5)');
  });

  it('the default model at 45 %, warn mode: the model is warned with 45 % of 1,000,000', async () => {
    const { model } = expectWarned(await guard(skill(session(450_000, 'claude-opus-5-5')), {}));
    expect(model).toContain('context is at 45% (450,000 of 1,000,000 tokens; window: model claude-opus-5-5)');
  });

  it('claude-haiku-4-5 at 50 %, strict: blocked on its 200,000 window', async () => {
    const { model } = expectBlocked(await guard(skill(session(100_000, 'claude-haiku-4-5-20251001', 'claude-haiku-4-5'))));
    expect(model).toContain('50% (100,000 of 200,000 tokens; window: model claude-haiku-4-5)');
  });

  it('claude-sonnet-4-5[1m] at 300,000 (its attachment says [1m]): loads, 30 % of 1,000,000', async () => {
    expectSilent(await guard(skill(session(300_000, 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5[1m]'))), 'allow below-ceiling');
    const { model } = expectWarned(await guard(skill(session(450_000, 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5[1m]')), {}));
    expect(model).toContain('45% (450,000 of 1,000,000 tokens; window: model claude-sonnet-4-5[1m])');
  });

  it('claude-sonnet-4-5 without its attachment: 200,000 assumed, so 50 % only warns, and says the 1M variant is possible', async () => {
    const run = await guard(skill(session(100_000, 'claude-sonnet-4-5-20250929')));
    const { user } = expectWarned(run, 'warn over-ceiling-assumed-window');
    expect(user).toBe(
      'context-ceiling: 50% of an assumed 200,000-token window (claude-sonnet-4-5; with [1m] it has 1,000,000, and nothing here says which) is over the 40% ceiling; the model was told to run the /context-summarization skill. ' +
        `The window is assumed, so this only warns, even in strict mode; state it: ${STATE_THE_WINDOW}.`,
    );
  });

  it('claude-sonnet-4-5 holding 300,000 without its attachment: that proves the 1M variant, 30 %, silent', async () => {
    expectSilent(await guard(skill(session(300_000, 'claude-sonnet-4-5-20250929'))), 'allow below-ceiling');
    const { model } = expectBlocked(await guard(skill(session(450_000, 'claude-sonnet-4-5-20250929', undefined, 't'), 't')));
    expect(model).toContain('(450,000 of 1,000,000 tokens; window: claude-sonnet-4-5 with [1m], proven by what this session held)');
  });

  it('claude-sonnet-4-5 whose attachment names no [1m] (a --betas context-1m session can look so) at 50 %: assumed, only warns', async () => {
    expectWarned(
      await guard(skill(session(100_000, 'claude-sonnet-4-5', 'claude-sonnet-4-5', 'u'), 'u')),
      'warn over-ceiling-assumed-window',
    );
  });

  it('claude-sonnet-4-5 whose attachment names no [1m] (a --betas context-1m session) holding 300,000: that proves the 1M variant too', async () => {
    expectSilent(await guard(skill(session(300_000, 'claude-sonnet-4-5', 'claude-sonnet-4-5', 't'), 't')), 'allow below-ceiling');
    const { model } = expectBlocked(await guard(skill(session(450_000, 'claude-sonnet-4-5', 'claude-sonnet-4-5', 't'), 't')));
    expect(model).toContain('(450,000 of 1,000,000 tokens; window: claude-sonnet-4-5 with [1m], proven by what this session held)');
  });

  it('a model Claude Code does not know: judged against its 1,000,000 default, only warns, and the person hears once how to state it', async () => {
    expect(expectNotice(await guard(skill(session(300_000, 'claude-foo-9', undefined, 't'), 't')))).toBe(
      "context-ceiling: claude-foo-9 is not in Claude Code's model table, so its window is assumed to be 1,000,000 tokens (Claude Code's own default for such models) and the ceiling only warns; " +
        `state it: ${STATE_THE_WINDOW}, or a policy "window".`,
    );
    expectSilent(await guard(skill(session(300_000, 'claude-foo-9', undefined, 't'), 't')), 'allow below-ceiling');
    const { model } = expectWarned(
      await guard(skill(session(950_000, 'claude-foo-9', undefined, 't'), 't')),
      'warn over-ceiling-assumed-window',
    );
    expect(model).toContain('of an assumed 1,000,000-token window');
  });

  it("a percentage over 100 % is never shown: an env window the session outgrew is replaced by the model's", async () => {
    const run = await guard(skill(session(450_000, 'claude-opus-5-5')), { ...STRICT, DEV_TEAM_CONTEXT_WINDOW: '200000' });
    const { model, user } = expectBlocked(run, 'block over-ceiling-blocked +notice');
    expect(model).toContain('45% (450,000 of 1,000,000 tokens');
    expect(user).toContain('more than the 200,000-token window (env), so that window is wrong');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/\b(1\d\d|[2-9]\d\d)%/);
  });
});

describe('what Claude Code reported wins, unless the session outgrew it', () => {
  it("a fresh status line report for the session beats the model's table", async () => {
    expect((await runStatusLine(statusInput('s', 'claude-opus-5-5', 500_000))).exitCode).toBe(0);
    const { model } = expectBlocked(await guard(skill(session(250_000, 'claude-opus-5-5'))));
    expect(model).toMatch(/50% \(250,000 of 500,000 tokens; window: status line, \d+s old\)/);
  });

  it("a status line that reported 200,000 for a session holding 360,000 is outgrown: the model's 1,000,000 counts", async () => {
    await runStatusLine(statusInput('s', 'claude-opus-5-5', 200_000));
    expect(expectNotice(await guard(skill(session(360_000, 'claude-opus-5-5'))))).toContain(
      'more than the 200,000-token window (status line',
    );
  });

  it("the status line's [1m] id and the transcript's bare id are the same model", async () => {
    await runStatusLine(statusInput('s', 'claude-sonnet-4-5[1m]', 1_000_000));
    expectSilent(await guard(skill(session(150_000, 'claude-sonnet-4-5-20250929'))), 'allow below-ceiling');
  });
});

describe('windows learned from the status line', () => {
  it('a window the status line reported for a model Claude Code has no table entry for is used by a later print-mode session, and blocks', async () => {
    await runStatusLine(statusInput('interactive-1', 'claude-foo-9', 600_000));
    const { model } = expectBlocked(await guard(skill(session(300_000, 'claude-foo-9', undefined, 'print-2'), 'print-2')));
    expect(model).toContain('50% (300,000 of 600,000 tokens; window: learned for claude-foo-9)');
  });

  it("a learned window never overrides the model's table, nor picks a variant: a 200K report for claude-sonnet-4-5 does not apply to its [1m] session", async () => {
    await runStatusLine(statusInput('interactive-1', 'claude-sonnet-4-5', 200_000));
    expectSilent(
      await guard(skill(session(120_000, 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5[1m]', 'print-2'), 'print-2')),
      'allow below-ceiling',
    );
    await runStatusLine(statusInput('interactive-3', 'claude-opus-5-5', 200_000));
    expectSilent(await guard(skill(session(120_000, 'claude-opus-5-5', undefined, 'print-4'), 'print-4')), 'allow below-ceiling');
  });

  it('a learned-windows file another user could have written is ignored', async () => {
    await runStatusLine(statusInput('a', 'claude-foo-9', 600_000));
    const learned = join(state(), 'learned-windows.json');
    expect(JSON.parse(readFileSync(learned, 'utf8')).models['claude-foo-9'].tokens).toBe(600_000);
    expect(statSync(learned).mode & 0o077).toBe(0);
    await execa('chmod', ['0777', state()]); // a directory others can write into proves nothing about who wrote the file
    const run = await guard(skill(session(300_000, 'claude-foo-9', undefined, 'c'), 'c'));
    expect(run.reason).toMatch(/^allow below-ceiling/); // 30 % of the assumed 1,000,000, not 50 % of a planted 600,000
  });
});

describe('proof of a wrong window outlives a compaction', () => {
  const env = { ...STRICT, DEV_TEAM_CONTEXT_WINDOW: '200000' };

  it('a stated 200,000 window seen holding 300,000 is never judged against again in that session, even after a compaction', async () => {
    const builder = aTranscript().user('go').assistant({ cacheRead: 300_000 });
    const path = sandbox.write('claude/s.jsonl', builder.toString());
    expect(expectNotice(await guard(skill(path), env))).toContain('held 300,005 tokens, more than the 200,000-token window (env)');
    sandbox.write(
      'claude/s.jsonl',
      builder.compactBoundary({ preTokens: 300_005, postTokens: 3_000 }).user('go on').assistant({ cacheRead: 90_000 }).toString(),
    );
    expectSilent(await guard(skill(path), env), 'allow below-ceiling'); // 9 % of the model's 1,000,000, not 45 % of 200,000
    const other = sandbox.write('claude/t.jsonl', aTranscript().assistant({ cacheRead: 90_000 }).toString());
    expectBlocked(await guard(skill(other, 'another'), env)); // another session never outgrew it
  });

  it('a compaction boundary whose preTokens exceed the window is evidence too', async () => {
    const builder = aTranscript().user('go').assistant({ cacheRead: 150_000 }).compactBoundary({ preTokens: 450_000, postTokens: 3_000 });
    const path = sandbox.write('claude/s.jsonl', builder.toString());
    expect(expectNotice(await guard(skill(path), env))).toContain('held 450,000 tokens, more than the 200,000-token window (env)');
    sandbox.write('claude/s.jsonl', builder.user('go on').assistant({ cacheRead: 90_000 }).toString());
    expectSilent(await guard(skill(path), env), 'allow below-ceiling');
  });
});

describe('the call is judged by its own turn', () => {
  const debugEnv = (file: string) => ({ ...STRICT, DEV_TEAM_CONTEXT_WINDOW: '200000', DEV_TEAM_CONTEXT_DEBUG: file });

  it('the calling turn already in the transcript: judged at once, no wait', async () => {
    const path = sandbox.write(
      'claude/s.jsonl',
      aTranscript()
        .assistant({ cacheRead: 10_000 })
        .assistant({ cacheRead: 100_000, toolUse: { name: 'Skill', input: { skill: 'x' }, id: 'toolu_call' } })
        .toString(),
    );
    const log = join(sandbox.root, 'debug.log');
    const run = await guard(preToolUse(path, 'Skill', { skill: 'x' }, { tool_use_id: 'toolu_call' }), debugEnv(log));
    expectBlocked(run);
    expect(readFileSync(log, 'utf8')).not.toContain('waiting');
  });

  it('the calling turn written while the hook runs: the hook waits for it and judges it, not the previous turn', async () => {
    const path = sandbox.write('claude/s.jsonl', aTranscript().user('go').assistant({ cacheRead: 10_000 }).toString());
    const log = join(sandbox.root, 'debug.log');
    const calling = aTranscript()
      .assistant({ cacheRead: 100_000, toolUse: { name: 'Skill', input: { skill: 'x' }, id: 'toolu_late' } })
      .toString();
    const running = guard(preToolUse(path, 'Skill', { skill: 'x' }, { tool_use_id: 'toolu_late' }), debugEnv(log));
    const run = await appendWhenWaiting(running, log, () => appendFileSync(path, calling));
    expect(expectBlocked(run).model).toContain('50% (100,005 of 200,000 tokens');
    expect(readFileSync(log, 'utf8')).not.toContain('did not reach the transcript');
  });

  it('a record that never comes: the newest turn is judged after the bounded wait, and debug output says so', async () => {
    const path = sandbox.write('claude/s.jsonl', aTranscript().user('go').assistant({ cacheRead: 100_000 }).toString());
    const log = join(sandbox.root, 'debug.log');
    expectBlocked(await guard(preToolUse(path, 'Skill', { skill: 'x' }, { tool_use_id: 'toolu_never' }), debugEnv(log)));
    expect(readFileSync(log, 'utf8')).toContain(
      'the record of call toolu_never did not reach the transcript within 500 ms; judging the newest turn there',
    );
  });
});
