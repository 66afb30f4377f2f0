/**
 * Which window the guard judges against, run as Claude Code runs the hooks:
 * only a verified window blocks, windows are learned from the status line,
 * proof of a wrong window outlives a compaction, and the calling turn is judged.
 */
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { HOOK_BIN, makeSandbox, preToolUse, runHook, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const STATE_THE_WINDOW = "DEV_TEAM_CONTEXT_WINDOW=1000000 (your model's window in tokens)";
const guard = (input: unknown, env: Record<string, string> = {}) => runHook(sandbox, input, env);

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
  version: '2.1.328',
  context_window: { context_window_size: window, current_usage: null, used_percentage: null },
});

describe('an assumed window never blocks', () => {
  it('strict mode with nothing else configured: 100,005 tokens (10 % of the real 1M window) warns, and says the window is assumed', async () => {
    sandbox.write('home/.claude/skills/context-summarization/SKILL.md', '---\nname: context-summarization\ndescription: d\n---\n');
    const transcript = sandbox.write('claude/s.jsonl', aTranscript().user('go').assistant({ cacheRead: 100_000 }).toString());
    const run = await guard(preToolUse(transcript, 'Skill', { skill: 'deep-dive' }), { DEV_TEAM_CONTEXT_STRICT: 'on' });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe(
      'context-ceiling: context at 50% (100,005 of an assumed 200,000-token window) is over the 40% ceiling before Skill "deep-dive"; run the /context-summarization skill before loading more capabilities. ' +
        `The window is assumed, so this only warns, even in strict mode; state it: ${STATE_THE_WINDOW}.\n`,
    );
    const output = JSON.parse(run.stdout);
    expect(output.hookSpecificOutput.additionalContext).toContain(
      'of an assumed 200,000-token window, over the 40% ceiling; the real window may be larger',
    );
    expect(output.systemMessage).toContain(
      `The window is assumed, so this only warns, even in strict mode; state it: ${STATE_THE_WINDOW}.`,
    );
  });

  it('the same call with the window stated is blocked', async () => {
    const transcript = sandbox.write('claude/s.jsonl', aTranscript().user('go').assistant({ cacheRead: 100_000 }).toString());
    const run = await guard(preToolUse(transcript, 'Skill', { skill: 'deep-dive' }), {
      DEV_TEAM_CONTEXT_STRICT: 'on',
      DEV_TEAM_CONTEXT_WINDOW: '200000',
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('blocked Skill "deep-dive"');
  });
});

describe('windows learned from the status line', () => {
  it('a window the status line reported for a model is used by a later print-mode session of that model, and then blocks', async () => {
    expect((await runStatusLine(statusInput('interactive-1', 'claude-opus-5-5', 1_000_000))).exitCode).toBe(0);
    const transcript = sandbox.write(
      'claude/print-2.jsonl',
      aTranscript().user('go').assistant({ cacheRead: 600_000, model: 'claude-opus-5-5' }).toString(),
    );
    const run = await guard(preToolUse(transcript, 'Skill', { skill: 'deep-dive' }, { session_id: 'print-2' }), {
      DEV_TEAM_CONTEXT_STRICT: 'on',
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('context at 60% (600,005 of 1,000,000 tokens, window: learned)');
  });

  it('a window learned for another model does not count', async () => {
    await runStatusLine(statusInput('interactive-1', 'claude-opus-5-5', 1_000_000));
    const transcript = sandbox.write(
      'claude/print-2.jsonl',
      aTranscript().user('go').assistant({ cacheRead: 100_000, model: 'claude-haiku-5' }).toString(),
    );
    const run = await guard(preToolUse(transcript, 'Skill', { skill: 'deep-dive' }, { session_id: 'print-2' }), {
      DEV_TEAM_CONTEXT_STRICT: 'on',
    });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('of an assumed 200,000-token window');
  });

  it('the newest report wins: the model moved to another window', async () => {
    await runStatusLine(statusInput('a', 'claude-opus-5-5', 1_000_000));
    await runStatusLine(statusInput('b', 'claude-opus-5-5', 500_000));
    const transcript = sandbox.write('claude/c.jsonl', aTranscript().assistant({ cacheRead: 300_000 }).toString());
    const run = await guard(preToolUse(transcript, 'Agent', {}, { session_id: 'c' }));
    expect(run.stderr).toContain('60% (300,005 of 500,000 tokens, window: learned)');
  });

  it('a learned-windows file another user could have written is ignored', async () => {
    await runStatusLine(statusInput('a', 'claude-opus-5-5', 1_000_000));
    const state = join(sandbox.tmp, `context-ceiling-${process.getuid!()}`);
    const learned = join(state, 'learned-windows.json');
    expect(JSON.parse(readFileSync(learned, 'utf8')).models['claude-opus-5-5'].tokens).toBe(1_000_000);
    expect(statSync(learned).mode & 0o077).toBe(0);
    await execa('chmod', ['0777', state]); // a directory others can write into proves nothing about who wrote the file
    const transcript = sandbox.write('claude/c.jsonl', aTranscript().assistant({ cacheRead: 600_000 }).toString());
    const run = await guard(preToolUse(transcript, 'Skill', { skill: 'x' }, { session_id: 'c' }), { DEV_TEAM_CONTEXT_STRICT: 'on' });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('this session holds 600,005 tokens, more than the 200,000-token window (default)');
  });
});

describe('proof of a wrong window outlives a compaction', () => {
  it('a stated 200,000 window seen holding 300,000 never blocks again in that session, even after a compaction', async () => {
    const env = { DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '200000' };
    const builder = aTranscript().user('go').assistant({ cacheRead: 300_000 });
    const path = sandbox.write('claude/s.jsonl', builder.toString());
    const before = await guard(preToolUse(path, 'Skill', { skill: 'x' }), env);
    expect(before.exitCode).toBe(0);
    expect(before.stderr).toContain('this session holds 300,005 tokens, more than the 200,000-token window (env)');
    sandbox.write(
      'claude/s.jsonl',
      builder.compactBoundary({ preTokens: 300_005, postTokens: 3_000 }).user('go on').assistant({ cacheRead: 90_000 }).toString(),
    );
    const after = await guard(preToolUse(path, 'Skill', { skill: 'x' }), env);
    expect(after.exitCode).toBe(0);
    expect(after.stderr).toContain('this session has held 300,005 tokens (before a compaction), more than the 200,000-token window (env)');
    const other = sandbox.write('claude/t.jsonl', aTranscript().assistant({ cacheRead: 90_000 }).toString());
    expect((await guard(preToolUse(other, 'Skill', { skill: 'x' }, { session_id: 'another' }), env)).exitCode).toBe(2);
  });

  it('a compaction boundary whose preTokens exceed the window is evidence too', async () => {
    const env = { DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '200000' };
    const builder = aTranscript().user('go').assistant({ cacheRead: 150_000 }).compactBoundary({ preTokens: 450_000, postTokens: 3_000 });
    const path = sandbox.write('claude/s.jsonl', builder.toString());
    expect(await guard(preToolUse(path, 'Skill', { skill: 'x' }), env)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    sandbox.write('claude/s.jsonl', builder.user('go on').assistant({ cacheRead: 90_000 }).toString());
    const run = await guard(preToolUse(path, 'Skill', { skill: 'x' }), env);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('has held 450,000 tokens (before a compaction)');
  });
});

describe('the call is judged by its own turn', () => {
  const debugEnv = (file: string) => ({ DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '200000', DEV_TEAM_CONTEXT_DEBUG: file });

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
    expect(run.exitCode).toBe(2);
    expect(readFileSync(log, 'utf8')).not.toContain('waiting');
  });

  it('the calling turn written while the hook runs: the hook waits for it and judges it, not the previous turn', async () => {
    const path = sandbox.write('claude/s.jsonl', aTranscript().user('go').assistant({ cacheRead: 10_000 }).toString());
    const log = join(sandbox.root, 'debug.log');
    const calling = aTranscript()
      .assistant({ cacheRead: 100_000, toolUse: { name: 'Skill', input: { skill: 'x' }, id: 'toolu_late' } })
      .toString();
    const running = guard(preToolUse(path, 'Skill', { skill: 'x' }, { tool_use_id: 'toolu_late' }), debugEnv(log));
    // Deterministic order: append only once the hook says it is waiting (its budget is the tolerance).
    while (!(existsSync(log) && readFileSync(log, 'utf8').includes('waiting up to'))) await new Promise((r) => setTimeout(r, 2));
    appendFileSync(path, calling);
    const run = await running;
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('50% (100,005 of 200,000 tokens');
    expect(readFileSync(log, 'utf8')).not.toContain('did not reach the transcript');
  });

  it('a record that never comes: the newest turn is judged after the bounded wait, and debug output says so', async () => {
    const path = sandbox.write('claude/s.jsonl', aTranscript().user('go').assistant({ cacheRead: 100_000 }).toString());
    const log = join(sandbox.root, 'debug.log');
    const run = await guard(preToolUse(path, 'Skill', { skill: 'x' }, { tool_use_id: 'toolu_never' }), debugEnv(log));
    expect(run.exitCode).toBe(2);
    expect(readFileSync(log, 'utf8')).toContain(
      'the record of call toolu_never did not reach the transcript within 500 ms; judging the newest turn there',
    );
  });
});
