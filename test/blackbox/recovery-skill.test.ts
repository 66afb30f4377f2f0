/** The recovery skill's save step (`hook.cjs save-checkpoint`), run as the skill runs it: no stdin, session from the environment. */
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { HOOK_BIN, makeSandbox, runCliOk, type Sandbox } from '../helpers/sandbox.js';
import { recordAsOurs } from '../helpers/own-checkpoints.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const SESSION = 'b2c4e6f8-0000-4000-8000-000000000001';

/** Claude Code's transcript for the project, at `tokens` of occupancy. */
function transcriptAt(tokens: number): void {
  const folder = sandbox.project.replace(/[^a-zA-Z0-9]/g, '-');
  sandbox.write(
    `home/.claude/projects/${folder}/${SESSION}.jsonl`,
    aTranscript()
      .assistant({ cacheRead: tokens - 5 })
      .toString(),
  );
}

async function save(env: Record<string, string>, cwd = sandbox.project) {
  const run = await execa(process.execPath, [HOOK_BIN, 'save-checkpoint'], {
    env: sandbox.env(env),
    extendEnv: false,
    cwd,
    reject: false,
    stripFinalNewline: false,
  });
  return { exitCode: run.exitCode, stdout: String(run.stdout), stderr: String(run.stderr) };
}

const checkpointDir = () => join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints', SESSION);

describe('save-checkpoint', () => {
  it('writes a checkpoint of the session (trigger "skill") in the project, from a subfolder too, and says what to do next', async () => {
    transcriptAt(90_000);
    const below = join(sandbox.project, 'src', 'deep');
    mkdirSync(below, { recursive: true });
    const run = await save(
      { CLAUDE_CODE_SESSION_ID: SESSION, CLAUDE_CODE_SESSION_ATTENDED: '0', DEV_TEAM_CONTEXT_WINDOW: '200000' },
      below,
    );
    expect(run).toEqual({
      exitCode: 0,
      stdout:
        `context-ceiling: checkpoint cx-001 saved at context fill 45% (90,000 of 200,000 tokens, window: env), tier OVER_CEILING: .claude/context-ceiling/checkpoints/${SESSION}/cx-001-checkpoint.json\n` +
        'This session is unattended (print mode or SDK): nobody can run /compact. Continue the current task with what is already loaded and load no new agents or skills; Claude Code compacts by itself.\n',
      stderr: '',
    });
    const checkpoint = JSON.parse(readFileSync(join(checkpointDir(), 'cx-001-checkpoint.json'), 'utf8'));
    expect(checkpoint).toMatchObject({
      id: 'cx-001',
      sessionId: SESSION,
      trigger: { type: 'skill' },
      context: { occupancy: 90_000, windowSource: 'env' },
      session: { projectDir: sandbox.project },
    });
    const listed = await runCliOk(sandbox, ['checkpoints', 'list', '--json'], { CLAUDE_PROJECT_DIR: sandbox.project });
    expect(listed.stdout).toContain('"trigger": "skill"');
  });

  it('an attended session is told to ask the person for /compact; a second save takes the next number', async () => {
    transcriptAt(90_000);
    await save({ CLAUDE_CODE_SESSION_ID: SESSION, CLAUDE_CODE_SESSION_ATTENDED: '1' });
    const run = await save({ CLAUDE_CODE_SESSION_ID: SESSION, CLAUDE_CODE_SESSION_ATTENDED: '1' });
    expect(run.stdout).toContain('checkpoint cx-002 saved');
    expect(run.stdout).toContain('This session is attended: ask the person to run /compact now (or /clear;');
    expect(readdirSync(checkpointDir()).sort()).toEqual(['cx-001-checkpoint.json', 'cx-002-checkpoint.json']);
  });

  it('outside Claude Code (no session id) it saves nothing and says so, exit 0', async () => {
    const run = await save({});
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^context-ceiling: no checkpoint saved \(CLAUDE_CODE_SESSION_ID is not set: not run by Claude Code\)/);
    expect(run.stdout).toContain('If a person is watching');
  });
});

describe('a skill checkpoint is no compaction', () => {
  const prompt = (env: Record<string, string> = {}) =>
    execa(process.execPath, [HOOK_BIN, 'user-prompt-submit'], {
      input: JSON.stringify({
        session_id: SESSION,
        transcript_path: '/nonexistent.jsonl',
        cwd: sandbox.project,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'go on',
      }),
      env: sandbox.env({ CLAUDE_PROJECT_DIR: sandbox.project, DEV_TEAM_CONTEXT_MONITOR: 'off', ...env }),
      extendEnv: false,
      reject: false,
    });

  it("the next prompt shows no compaction alert for it; a later compaction's alert acknowledges it", async () => {
    transcriptAt(90_000);
    await save({ CLAUDE_CODE_SESSION_ID: SESSION });
    expect((await prompt()).stdout).toBe('');
    expect(readdirSync(checkpointDir())).toEqual(['cx-001-checkpoint.json']);
    const compaction = JSON.parse(readFileSync(join(checkpointDir(), 'cx-001-checkpoint.json'), 'utf8'));
    const second = sandbox.write(
      `project/.claude/context-ceiling/checkpoints/${SESSION}/cx-002-checkpoint.json`,
      JSON.stringify({ ...compaction, id: 'cx-002', sequence: 2, trigger: { type: 'auto', customInstructions: null } }),
    );
    recordAsOurs(join(sandbox.home, '.local', 'state', 'context-ceiling'), sandbox.project, second, SESSION);
    expect((await prompt()).stdout).toContain('<compaction-alert>');
    expect(
      readdirSync(checkpointDir())
        .filter((name) => name.endsWith('.acknowledged'))
        .sort(),
    ).toEqual(['cx-001-checkpoint.acknowledged', 'cx-002-checkpoint.acknowledged']);
  });
});

describe('after a compaction that left the context over the ceiling (issue 20: never ask for the step just taken)', () => {
  const folder = () => sandbox.project.replace(/[^a-zA-Z0-9]/g, '-');
  const transcriptPath = () => join(sandbox.home, '.claude', 'projects', folder(), `${SESSION}.jsonl`);
  const WINDOW = { DEV_TEAM_CONTEXT_WINDOW: '1000000' };
  const prompt = () =>
    execa(process.execPath, [HOOK_BIN, 'user-prompt-submit'], {
      input: JSON.stringify({
        session_id: SESSION,
        transcript_path: transcriptPath(),
        cwd: sandbox.project,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'go on',
      }),
      env: sandbox.env({ CLAUDE_PROJECT_DIR: sandbox.project, ...WINDOW }),
      extendEnv: false,
      reject: false,
    });

  /** A prompt before the compaction (the monitor's mark), then the compaction and a turn, as Claude Code appends them. */
  async function compactedTo(postTokens: number, after: number): Promise<void> {
    sandbox.write(`home/.claude/projects/${folder()}/${SESSION}.jsonl`, aTranscript().assistant({ cacheRead: 950_000 }).toString());
    expect((await prompt()).exitCode).toBe(0);
    appendFileSync(
      transcriptPath(),
      aTranscript()
        .compactBoundary({ trigger: 'auto', preTokens: 950_010, postTokens })
        .assistant({ cacheRead: after - 5 })
        .toString(),
    );
  }

  it.each([
    [
      'attended',
      '1',
      'This session is attended: ask the person to run /clear now; the new session resumes from this checkpoint. Not /compact: a compaction already left 449,400 tokens, over the 40% ceiling, so /compact again will not bring it under.',
    ],
    [
      'unattended',
      '0',
      'nobody can run /clear. Continue the current task with what is already loaded and load no new agents or skills; a compaction already left 449,400 tokens',
    ],
  ])('%s: the save step asks for /clear, never /compact', async (_name, attended, line) => {
    await compactedTo(449_400, 450_005);
    const run = await save({ CLAUDE_CODE_SESSION_ID: SESSION, CLAUDE_CODE_SESSION_ATTENDED: attended, ...WINDOW });
    expect(run.stdout).toContain('checkpoint cx-001 saved');
    expect(run.stdout).toContain(line);
    expect(run.stdout).not.toMatch(/run \/compact|compacts by itself/);
  });

  it('a compaction that left the context under the ceiling: the usual /compact', async () => {
    await compactedTo(2_895, 450_005);
    const run = await save({ CLAUDE_CODE_SESSION_ID: SESSION, CLAUDE_CODE_SESSION_ATTENDED: '1', ...WINDOW });
    expect(run.stdout).toContain('This session is attended: ask the person to run /compact now (or /clear;');
  });
});
