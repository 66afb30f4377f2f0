// @module-tag hook
/**
 * The CLI in a pipe: a reader that stops reading (`| head`) ends a run quietly with exit 0, never an EPIPE
 * stack trace; colour is never written where it was turned off, nor where no terminal reads it (except the
 * status line, which Claude Code draws).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { runCliIntoClosedPipe, runCliIntoFile, runCliIntoSlowPipe, runCliOnTerminal } from '../helpers/closed-pipe.js';
import { expectWarned } from '../helpers/guard-runners.js';
import { FIXTURES, preToolUse, ROOT, runCli, runHook, useProjectSandbox } from '../helpers/sandbox.js';

const { sandbox, cli, cliOk } = useProjectSandbox();

const ESC = '\u001b[';

/** A session over the ceiling, compacted once (a checkpoint), warned once (an event): every command has something to print. */
async function aWorld(): Promise<string> {
  const transcript = sandbox().write(
    'claude/sess-pipe.jsonl',
    aTranscript('sess-pipe')
      .user('go')
      .assistant({ cacheRead: 450_000 - 5 })
      .toString(),
  );
  const env = { CLAUDE_PROJECT_DIR: sandbox().project };
  expectWarned(await runHook(sandbox(), preToolUse(transcript, 'Agent', { subagent_type: 'Explore' }, { session_id: 'sess-pipe' }), env));
  const input = { session_id: 'sess-pipe', transcript_path: transcript, cwd: sandbox().project, trigger: 'auto' };
  await runHook(sandbox(), input, env, 'hook', 'pre-compact');
  expect(existsSync(join(sandbox().project, '.claude', 'context-ceiling', 'checkpoints', 'sess-pipe', 'cx-001-checkpoint.json'))).toBe(
    true,
  );
  return transcript;
}

describe('a reader that stops reading (| head)', () => {
  it.each([
    ['config show', () => ['config', 'show']],
    ['config schema', () => ['config', 'schema']],
    ['checkpoints list', () => ['checkpoints', 'list']],
    ['checkpoints show', () => ['checkpoints', 'show', 'cx-001']],
    ['events', () => ['events']],
    ['status', (t: string) => ['status', '--transcript', t]],
    ['status --json', (t: string) => ['status', '--transcript', t, '--json']],
    ['report', (t: string) => ['report', t]],
    ['report --json', (t: string) => ['report', t, '--json']],
    ['checkpoints list --json', () => ['checkpoints', 'list', '--json']],
    ['checkpoints clean --dry-run', () => ['checkpoints', 'clean', '--all', '--dry-run']],
    ['events --json', () => ['events', '--json']],
    ['demo', () => ['demo']],
    ['doctor', () => ['doctor']],
    ['--help', () => ['--help']],
  ])('%s: exit 0, nothing on stderr', async (_name, args) => {
    const transcript = await aWorld();
    expect(await runCliIntoClosedPipe(sandbox(), args(transcript))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('report --html: the page is still written in full, and the run ends quietly', async () => {
    const transcript = await aWorld();
    const html = join(sandbox().tmp, 'report.html');
    expect(await runCliIntoClosedPipe(sandbox(), ['report', transcript, '--html', html])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>[\s\S]*<\/html>\n$/i);
  });

  it('replay --html: the page is still written in full, and the run ends quietly', async () => {
    await aWorld();
    const html = join(sandbox().tmp, 'replay.html');
    const run = await runCliIntoClosedPipe(sandbox(), ['replay', join(sandbox().root, 'claude'), '--html', html]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>[\s\S]*<\/html>\n$/i);
  });

  it('replay: its progress still goes to stderr, without a stack trace; exit 0', async () => {
    await aWorld();
    const run = await runCliIntoClosedPipe(sandbox(), ['replay', join(sandbox().root, 'claude')]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^replay: 100% \(/)]);
  });

  it('replay --json: the same', async () => {
    await aWorld();
    const run = await runCliIntoClosedPipe(sandbox(), ['replay', join(sandbox().root, 'claude'), '--json']);
    expect(run.exitCode).toBe(0);
    expect(run.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^replay: 100% \(/)]);
  });

  it('a usage error is still exit 1 with its one line on stderr: only the reader of stdout went away', async () => {
    const run = await runCliIntoClosedPipe(sandbox(), ['config', 'get', 'nope']);
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(run.stderr).toMatch(/^context-ceiling: unknown key "nope"; keys are [^\n]+\nUsage: [^\n]+\n$/);
  });

  it('a full disk is not a closed pipe: one line naming it, exit 1', async () => {
    const run = await runCliIntoFile(sandbox(), '/dev/full', ['config', 'show']);
    expect(run).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'context-ceiling: cannot write the output: no space left on the device (ENOSPC)\n',
    });
  });

  it('a slow reader on a pipe left non-blocking: every byte arrives, in order, exit 0', async () => {
    // ~250 KB of JSON, several times the pipe's buffer: the CLI meets EAGAIN until the reader starts.
    let builder = aTranscript('sess-slow').user('go');
    for (let turn = 0; turn < 3_000; turn++) builder = builder.assistant({ cacheRead: 1_000 + turn * 10 });
    const transcript = sandbox().write('claude/sess-slow.jsonl', builder.toString());
    const whole = await cliOk(['report', transcript, '--json']);
    expect(whole.stdout.length).toBeGreaterThan(3 * 64 * 1024);
    expect(await runCliIntoSlowPipe(sandbox(), ['report', transcript, '--json'])).toEqual({
      exitCode: 0,
      stdout: whole.stdout,
      stderr: '',
    });
  });
});

describe('colour', () => {
  const statusInput = readFileSync(join(FIXTURES, 'statusline-after-turn.json'), 'utf8');
  const plain = 'ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling\n';
  const withoutNoColor = (extra: Record<string, string> = {}) => ({ NO_COLOR: '', ...extra });

  it('the status line is coloured for Claude Code, which reads it through a pipe', async () => {
    const run = await runCli(sandbox(), ['statusline'], withoutNoColor(), statusInput);
    expect(run.stdout).toContain(`${ESC}32m▕█░░░│░░░░░░▏${ESC}0m`);
  });

  it.each([
    ['--no-color', ['statusline', '--no-color'], withoutNoColor()],
    ['--no-color before the command', ['--no-color', 'statusline'], withoutNoColor()],
    ['NO_COLOR=1', ['statusline'], { NO_COLOR: '1' }],
  ])('the status line has no colour with %s', async (_name, args, env) => {
    expect(await runCli(sandbox(), args, env, statusInput)).toEqual({ exitCode: 0, stdout: plain, stderr: '' });
  });

  it('the status line entry Claude Code runs (statusline.cjs) takes --no-color too', async () => {
    const run = await execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs'), '--no-color'], {
      env: sandbox().env({ NO_COLOR: '' }),
      extendEnv: false,
      input: statusInput,
    });
    expect(run.stdout).toBe(plain.trimEnd());
  });

  it('--no-color reaches a wrapped status line command as NO_COLOR=1', async () => {
    const run = await runCli(
      sandbox(),
      ['statusline', '--wrap', 'echo "mine NO_COLOR=$NO_COLOR"', '--no-color'],
      withoutNoColor(),
      statusInput,
    );
    expect(run.stdout).toBe(`mine NO_COLOR=1  ${plain}`);
  });

  it("report's chart takes the tiers' colours on a terminal; --no-color and NO_COLOR turn them off", async () => {
    const transcript = await aWorld();
    const onTerminal = await runCliOnTerminal(sandbox(), ['report', transcript], withoutNoColor());
    expect(onTerminal.exitCode).toBe(0);
    // 45 % on a 40 % ceiling: the row from 40 % to 45 % is OVER_CEILING (red, never a calm colour), the rows below it NOMINAL (green).
    expect(onTerminal.stdout).toContain(`     ┤${ESC}31m█${ESC}0m\n 40% ┤${ESC}32m█${ESC}0m ceiling 40%\n`);
    for (const [args, env] of [
      [['report', transcript, '--no-color'], withoutNoColor()],
      [['report', transcript], { NO_COLOR: '1' }],
    ] as const) {
      const plain = await runCliOnTerminal(sandbox(), [...args], env);
      expect(plain.stdout).not.toContain(ESC);
      expect(plain.stdout).toBe(onTerminal.stdout.replace(/\u001b\[[0-9;]*m/g, ''));
    }
  });

  it('every command accepts --no-color, and output that is not a terminal has no colour', async () => {
    const transcript = await aWorld();
    for (const args of [
      ['config', 'show'],
      ['checkpoints', 'list'],
      ['events'],
      ['status', '--transcript', transcript],
      ['report', transcript],
      ['replay', join(sandbox().root, 'claude')],
      ['doctor'],
    ]) {
      const coloured = await cli(args, withoutNoColor());
      const flagged = await cli([...args, '--no-color'], withoutNoColor());
      expect(`${coloured.stdout}${coloured.stderr}`, args.join(' ')).not.toContain(ESC);
      expect(flagged.exitCode, `${args.join(' ')}: ${flagged.stderr}`).toBe(coloured.exitCode);
      const untimed = (text: string) => text.replace(/ in [\d.]+ s( \([^)]*\/s\))?/, '');
      expect(untimed(flagged.stdout), args.join(' ')).toBe(untimed(coloured.stdout));
    }
    expect((await cliOk(['--help'])).stdout).toContain('--no-color');
  });
});
