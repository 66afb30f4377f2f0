// @module-tag hook
/**
 * The event log: every warning and block the guard gives is recorded where a CI job can show it, since
 * `claude -p` and the SDK show the person no hook output; `context-ceiling events` reads it.
 */
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { expectBlocked, expectWarned, STRICT } from '../helpers/guard-runners.js';
import { makeSandbox, preToolUse, runCli, runCliOk, runHook, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const state = () => join(sandbox.home, '.local', 'state', 'context-ceiling');
const log = () => join(state(), 'events.jsonl');
const transcriptAt = (tokens: number, name: string) =>
  sandbox.write(
    `claude/${name}.jsonl`,
    aTranscript(name)
      .user('go')
      .assistant({ cacheRead: tokens - 5 })
      .toString(),
  );
const guard = (session: string, tool: string, input: Record<string, unknown>, env: Record<string, string> = {}) =>
  runHook(sandbox, preToolUse(transcriptAt(450_000, session), tool, input, { session_id: session }), env);

/** A warning in session a (and its deduplicated repeat), a block in session b. */
async function someEvents() {
  expectWarned(await guard('sess-a', 'Agent', { subagent_type: 'Explore' }));
  await guard('sess-a', 'Agent', { subagent_type: 'Explore' });
  expectBlocked(await guard('sess-b', 'Skill', { skill: 'deep-dive' }, STRICT));
}

describe('context-ceiling events', () => {
  it('lists what the guard said, oldest first; a deduplicated repeat is not an event', async () => {
    await someEvents();
    const json = JSON.parse((await runCliOk(sandbox, ['events', '--json'])).stdout) as Array<Record<string, unknown>>;
    expect(json.map((e) => [e.session, e.outcome, e.tool, e.target, e.messageId, e.percent])).toEqual([
      ['sess-a', 'warn', 'Agent', 'Explore', 'over-ceiling', 45],
      ['sess-b', 'block', 'Skill', 'deep-dive', 'over-ceiling-blocked', 45],
    ]);
    expect(json[1]).toMatchObject({
      ceilingPct: 40,
      strict: true,
      window: { tokens: 1_000_000, source: 'model', detail: 'claude-opus-5-5' },
    });
    const table = (await runCliOk(sandbox, ['events'])).stdout.split('\n');
    expect(table[0]).toMatch(/^time +session +outcome +call +fill +window$/);
    expect(table[2]).toMatch(/ sess-b +block +Skill deep-dive +45% +1,000,000 \(model claude-opus-5-5\)$/);
  });

  it('--summary: the one line a CI step prints, with --session and --since', async () => {
    await someEvents();
    expect((await runCliOk(sandbox, ['events', '--summary'])).stdout).toBe(
      'context-ceiling: 1 block and 1 warning in 2 sessions; highest 45% of 1,000,000 (model claude-opus-5-5).\n',
    );
    expect((await runCliOk(sandbox, ['events', '--summary', '--session', 'sess-b'])).stdout).toMatch(
      /^context-ceiling: 1 block and 0 warnings in 1 session;/,
    );
    expect((await runCliOk(sandbox, ['events', '--summary', '--since', '1h'])).stdout).toMatch(/^context-ceiling: 1 block and 1 warning/);
    expect((await runCliOk(sandbox, ['events', '--summary', '--since', '2099-01-01T00:00:00Z'])).stdout).toBe(
      'context-ceiling: no warnings or blocks since 2099-01-01T00:00:00Z.\n',
    );
    expect(JSON.parse((await runCliOk(sandbox, ['events', '--summary', '--json'])).stdout)).toMatchObject({
      blocks: 1,
      warnings: 1,
      sessions: 2,
    });
  });

  it('nothing logged yet: says so, exit 0', async () => {
    expect((await runCliOk(sandbox, ['events'])).stdout).toBe('No warnings or blocks recorded.\n');
    expect((await runCliOk(sandbox, ['events', '--summary'])).stdout).toBe('context-ceiling: no warnings or blocks.\n');
  });

  it('a bad --since is a one-line error with usage, exit 1', async () => {
    const run = await runCli(sandbox, ['events', '--since', 'yesterday']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe('context-ceiling: --since must be an ISO time or a span such as 30m, 2h, 1d (got yesterday)');
  });

  it("status and report show the session's events", async () => {
    await someEvents();
    const status = await runCliOk(sandbox, ['status', '--transcript', join(sandbox.root, 'claude', 'sess-b.jsonl')]);
    expect(status.stdout).toMatch(/^Events +1 block and 0 warnings in this session \(context-ceiling events --session sess-b\)$/m);
    const report = await runCliOk(sandbox, ['report', join(sandbox.root, 'claude', 'sess-a.jsonl')]);
    expect(report.stdout).toContain('The guard logged 0 blocks and 1 warning for this session (context-ceiling events --session sess-a).');
  });
});

describe('the log itself', () => {
  it('is private (0600 in the 0700 state directory)', async () => {
    await someEvents();
    expect(statSync(log()).mode & 0o777).toBe(0o600);
    expect(statSync(state()).mode & 0o777).toBe(0o700);
  });

  it('a log planted as a symlink is never written through; the verdict is given anyway', async () => {
    mkdirSync(state(), { recursive: true, mode: 0o700 });
    const victim = sandbox.write('victim.txt', 'original');
    symlinkSync(victim, log());
    const debug = join(sandbox.root, 'debug.log');
    expectBlocked(await guard('sess-b', 'Skill', { skill: 'x' }, { ...STRICT, DEV_TEAM_CONTEXT_DEBUG: debug }));
    expect(readFileSync(victim, 'utf8')).toBe('original');
    expect(readFileSync(debug, 'utf8')).toMatch(/event not logged \(ELOOP/);
  });

  it('rotates past 1 MiB, keeping one previous file, and reads both', async () => {
    mkdirSync(state(), { recursive: true, mode: 0o700 });
    const old = {
      at: '2026-01-01T00:00:00.000Z',
      session: 'old',
      project: '/p',
      tool: 'Agent',
      outcome: 'warn',
      messageId: 'over-ceiling',
      ceilingPct: 40,
      window: { tokens: 1, source: 'env' },
      strict: false,
    };
    writeFileSync(log(), `${JSON.stringify(old)}\n${'x'.repeat(1024 * 1024)}\n`, { mode: 0o600 });
    await someEvents();
    expect(existsSync(`${log()}.1`)).toBe(true);
    const sessions = (JSON.parse((await runCliOk(sandbox, ['events', '--json'])).stdout) as Array<{ session: string }>).map(
      (e) => e.session,
    );
    expect(sessions).toEqual(['old', 'sess-a', 'sess-b']);
  });
});
