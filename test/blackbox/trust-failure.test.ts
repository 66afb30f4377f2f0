/**
 * Failure is observable (issue 19, case 9): a half-updated runtime copy (an event's bundle or policy-parse.cjs
 * missing) makes every hook fail open; that must leave one stderr line and a "last error" record that
 * `status` and `doctor` show, and `doctor` must not say ✓ over it. A policy file that does not validate (a
 * typo in the user's strict policy) is named in the guard's next message, not only under debug.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { FIXTURES, preToolUse, ROOT, runHook, useProjectSandbox } from '../helpers/sandbox.js';

const { sandbox, cli, cliOk } = useProjectSandbox();
const runtime = () => join(sandbox().project, '.claude', 'context-ceiling', 'runtime');
const lastError = () => join(sandbox().home, '.local', 'state', 'context-ceiling', 'last-error.json');
const transcriptAt = (tokens: number, name = 'claude/t.jsonl') =>
  sandbox().write(
    name,
    aTranscript()
      .user('go')
      .assistant({ cacheRead: tokens - 5 })
      .toString(),
  );

/** The installed hook, as the settings install wrote run it. */
async function installedHook(event: string, input: Record<string, unknown>, timeout?: number) {
  const result = await execa(process.execPath, [join(runtime(), 'hook.cjs'), event], {
    ...(timeout ? { timeout } : {}),
    input: JSON.stringify({ session_id: 's1', cwd: sandbox().project, ...input }),
    env: sandbox().env({ CLAUDE_PROJECT_DIR: sandbox().project }),
    extendEnv: false,
    cwd: sandbox().project,
    reject: false,
    stripFinalNewline: false,
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr), timedOut: result.timedOut };
}

type Doctor = { ok: boolean; checks: Array<{ name: string; status: string; detail: string }> };
const doctor = async () => JSON.parse((await cli(['doctor', '--json'])).stdout) as Doctor;

describe('a half-updated runtime copy', () => {
  it("the monitor's bundle missing: the hook says so on stderr, keeps a last error; doctor fails the hooks check and shows the error; status shows it", async () => {
    await cliOk(['install']);
    expect((await doctor()).checks.find((c) => c.name === 'hooks')!.status).toBe('ok'); // the control: a whole copy works
    rmSync(join(runtime(), 'hook-user-prompt-submit.cjs'));
    const transcript = transcriptAt(100_000);
    const run = await installedHook('user-prompt-submit', { transcript_path: transcript, prompt: 'go' });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^context-ceiling: the user-prompt-submit hook failed and let everything through: MODULE_NOT_FOUND: Cannot find module '.*hook-user-prompt-submit\.cjs'.* \(context-ceiling doctor shows the last error\)\n$/,
    );
    const record = JSON.parse(readFileSync(lastError(), 'utf8'));
    expect(record).toMatchObject({ event: 'user-prompt-submit', error: expect.stringContaining('hook-user-prompt-submit.cjs') });
    const checks = await doctor();
    expect(checks.ok).toBe(false);
    const hooks = checks.checks.find((c) => c.name === 'hooks')!;
    expect(hooks.status).toBe('fail');
    expect(hooks.detail).toContain('hook-user-prompt-submit.cjs missing');
    const errors = checks.checks.find((c) => c.name === 'errors')!;
    expect(errors.status).toBe('warn');
    expect(errors.detail).toMatch(
      /^the user-prompt-submit hook failed at .+ and let everything through: MODULE_NOT_FOUND: Cannot find module/,
    );
    const status = await cli(['status', '--transcript', transcript]);
    expect(status.stdout).toMatch(/^Last error {2}user-prompt-submit hook failed at .+hook-user-prompt-submit\.cjs/m);
  });

  it("the last error lands in the state directory the user's policy names, where doctor looks", async () => {
    const state = join(sandbox().root, 'my-state');
    sandbox().write('home/.claude/context-ceiling.json', JSON.stringify({ stateDir: state }));
    await cliOk(['install']);
    rmSync(join(runtime(), 'hook-session-start.cjs'));
    await installedHook('session-start', { transcript_path: transcriptAt(1_000), source: 'startup' });
    expect(JSON.parse(readFileSync(join(state, 'last-error.json'), 'utf8')).event).toBe('session-start');
    expect((await doctor()).checks.find((c) => c.name === 'errors')!.detail).toMatch(/^the session-start hook failed at /);
  });

  it("a FIFO where the user's policy file would be: the failed hook answers at once and keeps its last error in the default place", async () => {
    // Read as a regular file only, never opened for a blocking read: a FIFO with no writer would hold the hook until
    // Claude Code's timeout.
    await cliOk(['install']);
    mkdirSync(join(sandbox().home, '.claude'), { recursive: true });
    execFileSync('mkfifo', [join(sandbox().home, '.claude', 'context-ceiling.json')]);
    rmSync(join(runtime(), 'hook-session-start.cjs'));
    const run = await installedHook('session-start', { transcript_path: transcriptAt(1_000), source: 'startup' }, 15_000);
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toMatch(/^context-ceiling: the session-start hook failed and let everything through: MODULE_NOT_FOUND/);
    expect(JSON.parse(readFileSync(lastError(), 'utf8')).event).toBe('session-start');
  });

  it('launch-failed.cjs missing too: the launcher itself still says, in one line, that the hook let everything through', async () => {
    await cliOk(['install']);
    rmSync(join(runtime(), 'hook-user-prompt-submit.cjs'));
    rmSync(join(runtime(), 'launch-failed.cjs'));
    const run = await installedHook('user-prompt-submit', { transcript_path: transcriptAt(100_000), prompt: 'go' });
    expect(run).toMatchObject({ exitCode: 0, stdout: '' });
    expect(run.stderr).toMatch(
      /^context-ceiling: the user-prompt-submit hook could not load and let everything through \(Error: Cannot find module '.*hook-user-prompt-submit\.cjs'\n?.*\)\n$/,
    );
    expect((await doctor()).checks.find((c) => c.name === 'hooks')!.detail).toContain('launch-failed.cjs missing');
  });

  it('policy-parse.cjs missing with a policy file present: the guard over the ceiling says why it fails instead of nothing', async () => {
    await cliOk(['install']);
    rmSync(join(runtime(), 'policy-parse.cjs'));
    sandbox().write('home/.claude/context-ceiling.json', JSON.stringify({ strict: true }));
    const run = await installedHook('pre-tool-use', preToolUse(transcriptAt(450_000), 'Agent', {}, { session_id: 's1' }));
    expect(run.stderr).toMatch(/^context-ceiling: the pre-tool-use hook failed and let everything through: .*policy-parse\.cjs/);
    expect(existsSync(lastError())).toBe(true);
    const hooks = (await doctor()).checks.find((c) => c.name === 'hooks')!;
    expect(hooks.detail).toContain('policy-parse.cjs missing');
  });
});

describe('the status line fails as a hook does', () => {
  /** The status line, as Claude Code runs it after a turn, from a copy of the plugin's dist/ folder without `gone`. */
  const statusLineWithout = (gone: string) => {
    const dist = join(sandbox().root, 'dist');
    cpSync(join(ROOT, 'plugin', 'dist'), dist, { recursive: true });
    rmSync(join(dist, gone));
    return execa(process.execPath, [join(dist, 'statusline.cjs')], {
      input: readFileSync(join(FIXTURES, 'statusline-after-turn.json'), 'utf8'),
      env: sandbox().env({ CLAUDE_PROJECT_DIR: sandbox().project }),
      extendEnv: false,
      cwd: sandbox().project,
      reject: false,
    });
  };

  it('policy-parse.cjs missing with a policy file present: a fallback line, exit 0, one stderr line, a last error doctor and status show', async () => {
    // A half-updated copy of the plugin's dist/ folder: the status line's parser is gone.
    sandbox().write('home/.claude/context-ceiling.json', JSON.stringify({ ceilingPct: 30 }));
    const run = await statusLineWithout('policy-parse.cjs');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('ctx – context-ceiling failed (context-ceiling doctor)');
    expect(run.stderr).toMatch(
      /^context-ceiling: the status line failed and showed no measurement: MODULE_NOT_FOUND: Cannot find module '.*policy-parse\.cjs'.* \(context-ceiling doctor shows the last error\)$/,
    );
    expect(JSON.parse(readFileSync(lastError(), 'utf8'))).toMatchObject({
      event: 'statusline',
      error: expect.stringContaining('policy-parse.cjs'),
    });
    const errors = (await doctor()).checks.find((c) => c.name === 'errors')!;
    expect(errors.detail).toMatch(/^the status line failed at .+ and showed no measurement: MODULE_NOT_FOUND/);
    const status = await cli(['status', '--transcript', transcriptAt(1_000)]);
    expect(status.stdout).toMatch(/^Last error {2}status line failed at .+ and showed no measurement: MODULE_NOT_FOUND/m);
  });

  it('its own bundle (statusline-main.cjs) missing: the same fallback line, exit 0, one stderr line and a last error', async () => {
    // The launcher Claude Code runs is there, what it loads is not.
    const run = await statusLineWithout('statusline-main.cjs');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('ctx – context-ceiling failed (context-ceiling doctor)');
    expect(run.stderr).toMatch(
      /^context-ceiling: the status line failed and showed no measurement: .*statusline-main\.cjs.* \(context-ceiling doctor shows the last error\)$/,
    );
    expect(JSON.parse(readFileSync(lastError(), 'utf8'))).toMatchObject({
      event: 'statusline',
      error: expect.stringContaining('statusline-main.cjs'),
    });
  });
});

describe('a policy file that does not validate', { tags: ['hook'] }, () => {
  it("a typo in the user's strict policy: the guard's next message names it, once per session", async () => {
    sandbox().write('home/.claude/context-ceiling.json', JSON.stringify({ stirct: true }));
    sandbox().write('home/.claude/skills/context-summarization/SKILL.md', '---\nname: context-summarization\ndescription: d\n---\n');
    const call = (session: string) =>
      runHook(sandbox(), preToolUse(transcriptAt(100_000), 'Agent', {}, { session_id: session, cwd: sandbox().project }), {
        CLAUDE_PROJECT_DIR: sandbox().project,
      });
    const first = await call('s1');
    expect(first.reason).toBe('allow below-ceiling +notice');
    expect(JSON.parse(first.stdout).systemMessage).toBe(
      `context-ceiling: a policy file was ignored, so its settings (strict mode included) are not in force: ${join(sandbox().home, '.claude', 'context-ceiling.json')}: unknown key "stirct". Fix it (context-ceiling config validate shows every problem).`,
    );
    const again = await call('s1');
    expect(again.reason).toBe('allow below-ceiling');
    expect(again.stdout).toBe('');
  });
});
