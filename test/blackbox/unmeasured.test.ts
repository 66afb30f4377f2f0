// @module-tag hook
/**
 * When nothing can be measured, every call is let through, and each hook says why in words that are true of the
 * transcript: its newest turn lies further back than the most a hook reads (maxScanBytes, 64 MiB with nothing
 * configured; one line longer than that follows it, as a huge tool result would), it is there but cannot be read, or it
 * holds no turn yet. Never "no turn" for a transcript that has one.
 */
import { appendFileSync, chmodSync, closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { appendWhenWaiting, expectBlocked, STRICT } from '../helpers/guard-runners.js';
import { expectSilent, type HookRun, makeSandbox, preToolUse, ROOT, runHook, type Sandbox } from '../helpers/sandbox.js';

const MiB = 1024 * 1024;
const SESSION = 'scan-cap-session';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

/** A turn holding 900,000 tokens (90 % of the model's 1,000,000 window), then one line of `lineBytes` (a tool result). */
function turnThenLongLine(lineBytes: number): string {
  const path = sandbox.write('claude/long.jsonl', aTranscript().user('go').assistant({ cacheRead: 900_000 }).toString());
  const fd = openSync(path, 'a');
  writeSync(fd, '{"type":"user","message":{"role":"user","content":"');
  const block = Buffer.alloc(MiB, 'x');
  for (let written = 0; written < lineBytes; written += block.length) writeSync(fd, block);
  writeSync(fd, '"}}\n');
  closeSync(fd);
  return path;
}

const prompt = (transcript: string) => ({
  session_id: SESSION,
  transcript_path: transcript,
  cwd: sandbox.project,
  hook_event_name: 'UserPromptSubmit',
  prompt: 'next step',
});

const monitorText = (stdout: string): string => JSON.parse(stdout).hookSpecificOutput.additionalContext;

/** A resumed session before its first turn: Claude Code gives no usage, so the line comes from the transcript. */
const statusLine = (transcript: string, env: Record<string, string> = {}) =>
  execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs')], {
    input: JSON.stringify({
      session_id: SESSION,
      transcript_path: transcript,
      cwd: sandbox.project,
      model: { id: 'claude-opus-5-5', display_name: 'Opus 5.5' },
      workspace: { current_dir: sandbox.project, project_dir: sandbox.project },
      version: '2.1.332',
      context_window: { context_window_size: 1_000_000, current_usage: null },
    }),
    env: sandbox.env(env),
    extendEnv: false,
    cwd: sandbox.project,
    reject: false,
  });

describe('the newest turn further back than a hook reads', () => {
  it('nothing configured: the guard lets the call through and says the 64 MiB it read held no usage', async () => {
    const run = await runHook(sandbox, preToolUse(turnThenLongLine(65 * MiB), 'Skill', { skill: 'deep-dive' }), STRICT);
    expectSilent(run, 'allow unmeasured scan-cap');
  });

  it('the same turn behind a line the hook reads past is judged: blocked at 90 % in strict mode', async () => {
    expectBlocked(await runHook(sandbox, preToolUse(turnThenLongLine(MiB), 'Skill', { skill: 'deep-dive' }), STRICT));
  });

  it('nothing configured: the monitor tells the model how far it read, not that there was no turn', async () => {
    const run = await runHook(sandbox, prompt(turnThenLongLine(65 * MiB)), {}, 'hook', 'user-prompt-submit');
    expect(run.exitCode).toBe(0);
    expect(run.reason).toBe('monitor unmeasured scan-cap');
    const text = monitorText(run.stdout);
    expect(text).toContain(
      'Context not measured: no turn with usage in the last 64.0 MiB of the transcript, the most a hook reads (maxScanBytes).',
    );
    expect(text).not.toContain('no assistant turn');
  });

  it('the monitor names the cap as configured', async () => {
    const run = await runHook(
      sandbox,
      prompt(turnThenLongLine(MiB)),
      { DEV_TEAM_CONTEXT_MAX_SCAN_BYTES: '65536' },
      'hook',
      'user-prompt-submit',
    );
    expect(run.reason).toBe('monitor unmeasured scan-cap');
    expect(monitorText(run.stdout)).toContain('Context not measured: no turn with usage in the last 64.0 KiB of the transcript');
  });

  it('a transcript with no turn at all is still "not measured yet"', async () => {
    const transcript = sandbox.write('claude/none.jsonl', aTranscript().user('go').toString());
    const run = await runHook(sandbox, prompt(transcript), {}, 'hook', 'user-prompt-submit');
    expect(run.reason).toBe('monitor unmeasured no-usage');
    expect(monitorText(run.stdout)).toContain('Context not measured yet (no assistant turn with usage in the transcript).');
  });

  it('nothing configured: the status line says it read 64 MiB without a turn, not "no turn yet"', async () => {
    const debug = join(sandbox.root, 'statusline-debug.log');
    const run = await statusLine(turnThenLongLine(65 * MiB), { DEV_TEAM_CONTEXT_DEBUG: debug });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('ctx –/1,000,000 not measured: no turn in the last 64.0 MiB · ceiling 40%');
    expect(readFileSync(debug, 'utf8')).toContain(`status line: transcript unavailable scanned=${64 * MiB}`);
  });

  it('the monitor still judges the turn it can reach', async () => {
    const run = await runHook(sandbox, prompt(turnThenLongLine(MiB)), {}, 'hook', 'user-prompt-submit');
    expect(run.reason).toBe('monitor emergency');
    expect(monitorText(run.stdout)).toMatch(/Context 90% \(900,00\d of 1,000,000 tokens/);
  });

  it('the status line still shows the turn it can reach', async () => {
    const run = await statusLine(turnThenLongLine(MiB));
    expect(run.stdout).toMatch(/^ctx 90% .* 900,00\d\/1,000,000 /);
  });
});

describe('a transcript that is there but cannot be read', () => {
  /** A turn at 90 %, readable by no one but root with its override (the hooks run without it: obeyPermissions). */
  function lockedTranscript(): string {
    const path = sandbox.write('claude/locked.jsonl', aTranscript().user('go').assistant({ cacheRead: 900_000 }).toString());
    chmodSync(path, 0o000);
    sandbox.obeyPermissions = true;
    return path;
  }

  it('the guard lets the call through and says the transcript could not be read', async () => {
    expectSilent(
      await runHook(sandbox, preToolUse(lockedTranscript(), 'Skill', { skill: 'deep-dive' }), STRICT),
      'allow unmeasured unreadable',
    );
  });

  it('the monitor tells the model the transcript cannot be read, not that it holds no turn', async () => {
    const run = await runHook(sandbox, prompt(lockedTranscript()), {}, 'hook', 'user-prompt-submit');
    expect(run.reason).toBe('monitor unmeasured unreadable');
    const text = monitorText(run.stdout);
    expect(text).toContain('Context not measured: the transcript cannot be read (no permission, or not a regular file).');
    expect(text).not.toContain('no assistant turn');
  });

  it('a folder where the transcript should be: the monitor and the status line say it cannot be read', async () => {
    const folder = join(sandbox.root, 'claude', 'folder.jsonl');
    mkdirSync(folder, { recursive: true });
    const run = await runHook(sandbox, prompt(folder), {}, 'hook', 'user-prompt-submit');
    expect(run.reason).toBe('monitor unmeasured unreadable');
    expect(monitorText(run.stdout)).toContain('Context not measured: the transcript cannot be read');
    expect((await statusLine(folder)).stdout).toBe('ctx –/1,000,000 not measured: transcript unreadable · ceiling 40%');
  });

  it('a transcript not written yet (a session before its first turn) is "not measured yet" and "no turn yet"', async () => {
    const missing = join(sandbox.root, 'claude', 'not-yet.jsonl');
    const run = await runHook(sandbox, prompt(missing), {}, 'hook', 'user-prompt-submit');
    expect(run.reason).toBe('monitor unmeasured no-transcript');
    expect(monitorText(run.stdout)).toContain('Context not measured yet (no assistant turn with usage in the transcript).');
    expect((await statusLine(missing)).stdout).toBe('ctx –/1,000,000 no turn yet · ceiling 40%');
  });
});

describe('no turn within reach: the guard waits for the calling turn, as for a newest turn that is not the call', () => {
  /** The calling turn at 90 % of the model's window, making the Skill call `id`. */
  const callingTurn = (id: string) =>
    aTranscript()
      .assistant({ cacheRead: 900_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' }, id } })
      .toString();
  const call = (transcript: string, id: string) => preToolUse(transcript, 'Skill', { skill: 'deep-dive' }, { tool_use_id: id });

  /** Run the guard on `transcript` and append the calling turn once it says it is waiting (appendWhenWaiting). */
  async function appendWhileWaiting(transcript: string, id: string): Promise<{ run: HookRun; log: string }> {
    const log = join(sandbox.root, 'debug.log');
    const running = runHook(sandbox, call(transcript, id), { ...STRICT, DEV_TEAM_CONTEXT_DEBUG: log });
    const run = await appendWhenWaiting(running, log, () => appendFileSync(transcript, callingTurn(id)));
    return { run, log: readFileSync(log, 'utf8') };
  }

  it('the newest turn behind more than a hook reads: the calling turn, written while the hook waits, is judged and blocked', async () => {
    const { run, log } = await appendWhileWaiting(turnThenLongLine(65 * MiB), 'toolu_late');
    expect(expectBlocked(run).model).toContain('90% (900,005 of 1,000,000 tokens');
    expect(log).toContain('no turn within reach (scan-cap) holds call toolu_late; waiting up to 500 ms for its record');
    expect(log).not.toContain('did not reach the transcript');
  });

  it("a transcript with no turn yet (a session's first): the calling turn, written while the hook waits, is judged and blocked", async () => {
    const transcript = sandbox.write('claude/first.jsonl', aTranscript().user('go').toString());
    const { run, log } = await appendWhileWaiting(transcript, 'toolu_first');
    expect(expectBlocked(run).model).toContain('90% (900,005 of 1,000,000 tokens');
    expect(log).toContain('no turn within reach (no-usage) holds call toolu_first; waiting up to 500 ms for its record');
  });

  it('a record that never comes: let through after the bounded wait, and the debug channel says so', async () => {
    const log = join(sandbox.root, 'debug.log');
    const run = await runHook(sandbox, call(turnThenLongLine(65 * MiB), 'toolu_never'), { ...STRICT, DEV_TEAM_CONTEXT_DEBUG: log });
    expectSilent(run, 'allow unmeasured scan-cap');
    expect(readFileSync(log, 'utf8')).toContain(
      'the record of call toolu_never did not reach the transcript within 500 ms; judging the newest turn there',
    );
  });

  it('a transcript not written yet (a print-mode session flushes its first turn after its hooks) or unreadable: no wait', async () => {
    const folder = join(sandbox.root, 'claude', 'folder.jsonl');
    mkdirSync(folder, { recursive: true });
    for (const [transcript, why] of [
      [join(sandbox.root, 'claude', 'not-yet.jsonl'), 'no-transcript'],
      [folder, 'unreadable'],
    ] as const) {
      const log = join(sandbox.root, `debug-${why}.log`);
      const run = await runHook(sandbox, call(transcript, 'toolu_x'), { ...STRICT, DEV_TEAM_CONTEXT_DEBUG: log });
      expectSilent(run, `allow unmeasured ${why}`);
      expect(readFileSync(log, 'utf8')).not.toContain('waiting');
    }
  });
});
