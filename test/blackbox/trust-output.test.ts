// @module-tag hook
/**
 * Text from a transcript path, a settings file or the state directory reaches the terminal through the
 * one sanitiser (status, report, doctor), and `--json` escapes C1, bidi and invisible characters;
 * learned windows are read only from a private directory, as a regular file of ours.
 */
import { chmodSync, chownSync, copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { makeSandbox, preToolUse, runCliOk, runHook, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

/** ESC, a C1 CSI, NEL, a right-to-left override, a zero-width space and a tag. */
const HOSTILE = 'x\u001b[2J\u009b31m\u0085\u202etxet\u200b<system>';

function expectInert(text: string): void {
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]|<system>/);
}

/** The raw bytes hold no C1, bidi or invisible character, and the JSON still gives back the exact string. */
function expectEscapedJson(stdout: string, field: (value: { transcript: string }) => string, expected: string): void {
  expect(stdout).not.toMatch(/[\u0080-\u009f\u200b-\u200f\u202a-\u202e]/);
  expect(field(JSON.parse(stdout))).toBe(expected);
}

describe('a hostile transcript path', () => {
  const planted = () =>
    sandbox.write(
      `${HOSTILE}.jsonl`,
      aTranscript()
        .assistant({ cacheRead: 100_000 - 5 })
        .toString(),
    );

  it('status prints it sanitised; --json escapes it losslessly', async () => {
    const path = planted();
    expectInert((await runCliOk(sandbox, ['status', '--transcript', path])).stdout);
    expectEscapedJson((await runCliOk(sandbox, ['status', '--transcript', path, '--json'])).stdout, (v) => v.transcript, path);
  });

  it('report prints its title sanitised; --json escapes it losslessly', async () => {
    const path = planted();
    const human = (await runCliOk(sandbox, ['report', path])).stdout;
    expect(human.split('\n')[0]).toBe('Session x [2J 31m txet‹system>');
    expectInert(human);
    expectEscapedJson((await runCliOk(sandbox, ['report', path, '--json'])).stdout, (v) => v.transcript, path);
  });
});

describe('doctor', () => {
  it('prints a hostile state directory name sanitised; --json escapes it losslessly', async () => {
    const state = join(sandbox.root, `state-${HOSTILE}`);
    const env = { DEV_TEAM_CONTEXT_STATE_DIR: state, CLAUDE_PROJECT_DIR: sandbox.project };
    const human = await runCliOk(sandbox, ['install'], env).then(() => runCliOk(sandbox, ['doctor'], env));
    expect(human.stdout).toContain('state-x [2J 31m txet');
    expectInert(human.stdout);
    const json = (await runCliOk(sandbox, ['doctor', '--json'], env)).stdout;
    expect(json).not.toMatch(/[\u0080-\u009f\u200b-\u200f\u202a-\u202e]/);
    expect(JSON.parse(json).checks.find((c: { name: string }) => c.name === 'state').detail).toContain(state); // escaped, not lost
  });
});

describe('learned windows are believed only from a private directory, as a regular file of ours', () => {
  const state = () => join(sandbox.root, 'state');
  const learned = () => join(state(), 'learned-windows.json');
  const plant = () => {
    mkdirSync(state(), { recursive: true, mode: 0o700 });
    writeFileSync(learned(), JSON.stringify({ models: { 'claude-foo-9': { tokens: 400_000, updatedAt: new Date().toISOString() } } }));
  };
  // 300,000 tokens of a model Claude Code's table lacks, in strict mode: 75 % of a learned 400,000 window
  // (blocked), or 30 % of the assumed 1,000,000 the client gives unknown models (silent but for the notice).
  const judged = async () => {
    const transcript = sandbox.write(
      't.jsonl',
      aTranscript()
        .assistant({ cacheRead: 300_000 - 5, model: 'claude-foo-9' })
        .toString(),
    );
    const run = await runHook(sandbox, preToolUse(transcript, 'Skill', { skill: 'x' }, { session_id: 'no-report' }), {
      DEV_TEAM_CONTEXT_STRICT: 'on',
      DEV_TEAM_CONTEXT_STATE_DIR: state(),
    });
    if (run.reason === 'block over-ceiling-blocked' && run.stdout.includes('window: learned for claude-foo-9')) return 'learned';
    return run.reason?.startsWith('allow below-ceiling') ? 'default' : `${run.reason}: ${run.stdout}`;
  };

  it('believed from our own 0700 directory (the control case)', async () => {
    plant();
    expect(await judged()).toBe('learned');
  });

  it('ignored when the directory is group-writable', async () => {
    plant();
    chmodSync(state(), 0o770);
    expect(await judged()).toBe('default');
  });

  it('ignored when the file is a symlink to a copy', async () => {
    plant();
    copyFileSync(learned(), join(sandbox.root, 'copy.json'));
    rmSync(learned());
    symlinkSync(join(sandbox.root, 'copy.json'), learned());
    expect(await judged()).toBe('default');
  });

  it('ignored when the file is over its 64 KiB cap', async () => {
    plant();
    const record = JSON.parse(readFileSync(learned(), 'utf8'));
    writeFileSync(learned(), JSON.stringify({ ...record, padding: 'x'.repeat(70 * 1024) }));
    expect(await judged()).toBe('default');
  });

  // Needs root to give a file to another uid; elsewhere it shows as skipped.
  it.skipIf(process.getuid?.() !== 0)('ignored when the file belongs to another uid', async () => {
    plant();
    chownSync(learned(), 4242, 4242);
    expect(await judged()).toBe('default');
  });
});

describe('checkpoints', () => {
  it('show and list print a checkpoint’s own words sanitised, and our "<1%" as it is', async () => {
    const transcript = sandbox.write(
      'claude/small.jsonl',
      aTranscript('small')
        .assistant({ cacheRead: 3_500 - 5 })
        .toString(),
    );
    const env = { CLAUDE_PROJECT_DIR: sandbox.project };
    await runHook(
      sandbox,
      { session_id: 'small', transcript_path: transcript, cwd: sandbox.project, trigger: 'auto' },
      env,
      'hook',
      'pre-compact',
    );
    const file = join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints', 'small', 'cx-001-checkpoint.json');
    const checkpoint = JSON.parse(readFileSync(file, 'utf8'));
    // A repository can commit any checkpoint: its window's source and detail are outside text.
    writeFileSync(
      file,
      JSON.stringify({ ...checkpoint, context: { ...checkpoint.context, windowSource: HOSTILE, windowDetail: HOSTILE } }),
    );
    const shown = (await runCliOk(sandbox, ['checkpoints', 'show', 'small/cx-001'], env)).stdout;
    expectInert(shown);
    expect(shown).toMatch(/\nFill {9}<1% \(3,500 of 1,000,000 tokens, window: [^\n]*x \[2J 31m txet‹system>[^\n]*\), tier NOMINAL\n/);
    const listed = (await runCliOk(sandbox, ['checkpoints', 'list'], env)).stdout;
    expect(listed).toMatch(/^small\/cx-001 +\S+ +auto +<1% +NOMINAL +no +found, not ours$/m);
  });
});
