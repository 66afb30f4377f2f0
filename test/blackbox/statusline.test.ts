/** The status line command as Claude Code runs it, and the hooks using the window it bridges. */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { FIXTURES, makeSandbox, preToolUse, ROOT, runCli, runCliOk, runHook, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const SESSION = 'e5f74ece-445c-474e-817a-0891f9d160cb';
const afterTurn = readFileSync(join(FIXTURES, 'statusline-after-turn.json'), 'utf8');
const statusline = (input: string, env: Record<string, string> = {}, args: string[] = []) =>
  execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs'), ...args], {
    input,
    env: sandbox.env(env),
    extendEnv: false,
    cwd: sandbox.project,
    reject: false,
  });
const bridgeFile = () => join(sandbox.tmp, `context-ceiling-${process.getuid?.() ?? 'user'}`, 'bridge', `${SESSION}.json`);

describe('statusline', () => {
  it('prints one line and records the session’s window', async () => {
    const run = await statusline(afterTurn);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('ctx 12% ▕█░░░░░░░░░▏ 121,005/1,000,000 NOMINAL');
    const record = JSON.parse(readFileSync(bridgeFile(), 'utf8'));
    expect(record).toMatchObject({
      sessionId: SESSION,
      windowTokens: 1_000_000,
      usageTokens: 121_005,
      modelId: 'claude-opus-5-5',
      version: '2.1.328',
    });
    expect(Date.parse(record.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('colours when NO_COLOR is not set', async () => {
    const env = sandbox.env();
    delete (env as Record<string, string | undefined>).NO_COLOR;
    const run = await execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs')], {
      input: afterTurn,
      env,
      extendEnv: false,
      reject: false,
    });
    expect(run.stdout).toContain('\u001b[32mNOMINAL\u001b[0m');
  });

  it('--wrap keeps the user’s own status line, with ours appended', async () => {
    const run = await statusline(afterTurn, {}, [
      '--wrap',
      `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log('mine: '+JSON.parse(s).model.display_name))"`,
    ]);
    expect(run.stdout).toBe('mine: Opus 5.5  ctx 12% ▕█░░░░░░░░░▏ 121,005/1,000,000 NOMINAL');
  });

  it('a failing wrapped command leaves ours alone', async () => {
    expect((await statusline(afterTurn, {}, ['--wrap', 'exit 3'])).stdout).toBe('ctx 12% ▕█░░░░░░░░░▏ 121,005/1,000,000 NOMINAL');
  });

  it('garbage input prints nothing and exits 0', async () => {
    for (const input of ['', 'nope', '[]', '{"session_id": 1}']) expect(await statusline(input)).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('through the bin as well', async () => {
    expect((await runCliOk(sandbox, ['statusline'], {}, afterTurn)).stdout).toBe('ctx 12% ▕█░░░░░░░░░▏ 121,005/1,000,000 NOMINAL\n');
  });
});

describe('hooks use the bridged window', () => {
  const transcriptAt = (tokens: number, model = 'claude-opus-5-5') =>
    sandbox.write(
      't.jsonl',
      aTranscript()
        .assistant({ cacheRead: tokens - 5, model })
        .toString(),
    );

  it('the guard judges against the real 1M window, and says the window came from the bridge', async () => {
    await statusline(afterTurn);
    const input = preToolUse(transcriptAt(500_000), 'Skill', { skill: 'x' }, { session_id: SESSION });
    const run = await runHook(sandbox, input, { DEV_TEAM_CONTEXT_STRICT: 'on' });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('context at 50% (500,000 of 1,000,000 tokens, window: bridge)');
    expect(
      (
        await runHook(sandbox, preToolUse(transcriptAt(300_000), 'Skill', { skill: 'x' }, { session_id: SESSION }), {
          DEV_TEAM_CONTEXT_STRICT: 'on',
        })
      ).exitCode,
    ).toBe(0); // 30% of 1M
  });

  it('without the bridge the same call is judged against the 200,000 default', async () => {
    const run = await runHook(sandbox, preToolUse(transcriptAt(150_000), 'Skill', { skill: 'x' }, { session_id: SESSION }), {
      DEV_TEAM_CONTEXT_STRICT: 'on',
    });
    expect(run.stderr).toContain('75% (150,000 of an assumed 200,000-token window)');
  });

  it('DEV_TEAM_CONTEXT_WINDOW still wins over the bridge', async () => {
    await statusline(afterTurn);
    const run = await runHook(sandbox, preToolUse(transcriptAt(300_000), 'Skill', { skill: 'x' }, { session_id: SESSION }), {
      DEV_TEAM_CONTEXT_STRICT: 'on',
      DEV_TEAM_CONTEXT_WINDOW: '400000',
    });
    expect(run.stderr).toContain('75% (300,000 of 400,000 tokens, window: env)');
  });

  it('a stale bridge is not used; the window learned for the model is', async () => {
    await statusline(afterTurn);
    const record = JSON.parse(readFileSync(bridgeFile(), 'utf8'));
    sandbox.write(
      bridgeFile().slice(sandbox.root.length + 1),
      JSON.stringify({ ...record, updatedAt: new Date(Date.now() - 2 * 86_400_000).toISOString() }),
    );
    const input = preToolUse(transcriptAt(500_000), 'Skill', { skill: 'x' }, { session_id: SESSION });
    expect((await runHook(sandbox, input, { DEV_TEAM_CONTEXT_STRICT: 'on' })).stderr).toContain(
      '50% (500,000 of 1,000,000 tokens, window: learned)',
    );
    rmSync(join(dirname(dirname(bridgeFile())), 'learned-windows.json'));
    expect((await runHook(sandbox, input, { DEV_TEAM_CONTEXT_STRICT: 'on' })).stderr).toContain(
      'more than the 200,000-token window (default)',
    );
  });

  it('a turn of another model (a subagent’s haiku) does not use the main model’s bridge', async () => {
    await statusline(afterTurn);
    const run = await runHook(
      sandbox,
      preToolUse(transcriptAt(150_000, 'claude-haiku-5'), 'Skill', { skill: 'x' }, { session_id: SESSION }),
      { DEV_TEAM_CONTEXT_STRICT: 'on' },
    );
    expect(run.stderr).toContain('75% (150,000 of an assumed 200,000-token window)');
  });

  it('the monitor and status name the bridge too', async () => {
    await statusline(afterTurn);
    const monitor = await runHook(
      sandbox,
      { session_id: SESSION, transcript_path: transcriptAt(750_000), cwd: sandbox.project },
      {},
      'hook',
      'user-prompt-submit',
    );
    expect(JSON.parse(monitor.stdout).hookSpecificOutput.additionalContext).toContain(
      'Context 75% (750,000 of 1,000,000 tokens, window: bridge',
    );
    const transcript = sandbox.write(
      `${SESSION}.jsonl`,
      aTranscript()
        .assistant({ cacheRead: 100_000 - 5 })
        .toString(),
    );
    const status = JSON.parse((await runCliOk(sandbox, ['status', '--transcript', transcript, '--json'])).stdout);
    expect(status).toMatchObject({ window: 1_000_000, windowSource: 'bridge', percent: 10 });
  });
});

describe('install --statusline', () => {
  const cli = (args: string[]) => runCli(sandbox, args, { CLAUDE_PROJECT_DIR: sandbox.project });
  const settings = () => JSON.parse(readFileSync(join(sandbox.project, '.claude', 'settings.json'), 'utf8'));

  it('wires our status line, wrapping an existing one; uninstall restores it', async () => {
    const mine = { type: 'command', command: "echo 'my line'", padding: 1 };
    sandbox.write('project/.claude/settings.json', JSON.stringify({ statusLine: mine }));
    expect((await cli(['install', '--statusline'])).exitCode).toBe(0);
    const wired = settings().statusLine;
    expect(wired.command).toBe(`node "$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime/statusline.cjs" --wrap 'echo '\\''my line'\\'''`);
    const shown = await execa('bash', ['-c', wired.command], {
      input: afterTurn,
      env: sandbox.env({ CLAUDE_PROJECT_DIR: sandbox.project }),
      extendEnv: false,
    });
    expect(shown.stdout).toBe('my line  ctx 12% ▕█░░░░░░░░░▏ 121,005/1,000,000 NOMINAL');
    expect((await cli(['install', '--statusline'])).stdout).toMatch(/nothing changed/);
    await cli(['uninstall']);
    expect(settings()).toEqual({ statusLine: mine });
    expect(readdirSync(join(sandbox.project, '.claude')).filter((f) => f.startsWith('context-ceiling'))).toEqual([]);
  });

  it('without an existing status line, uninstall removes ours', async () => {
    await cli(['install', '--statusline']);
    expect(settings().statusLine.command).toBe('node "$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime/statusline.cjs"');
    await cli(['uninstall']);
    expect(settings()).toEqual({});
  });
});

describe('statusline --wrap with a multi-line status line', () => {
  it('appends ours to the first line, keeps the rest', async () => {
    const run = await execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs'), '--wrap', 'printf "one\\ntwo\\n"'], {
      input: afterTurn,
      env: sandbox.env(),
      extendEnv: false,
      reject: false,
    });
    expect(run.stdout).toBe('one  ctx 12% ▕█░░░░░░░░░▏ 121,005/1,000,000 NOMINAL\ntwo');
  });
});
