// @module-tag hook
/** Compaction that keeps what matters, run as Claude Code runs the hooks: PreCompact → SessionStart compact → PostCompact (verified order), then /clear. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { expectSilent, makeSandbox, runHook, type HookRun, type Sandbox } from '../helpers/sandbox.js';
import { ORCHESTRATION, SUMMARY } from '../helpers/compaction-fixture.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const SESSION = '5b0c7e7e-1d2f-4c1a-9f0e-3c2b1a000001';
const hook = (event: string, input: Record<string, unknown>) =>
  runHook(sandbox, { session_id: SESSION, cwd: sandbox.project, ...input }, { CLAUDE_PROJECT_DIR: sandbox.project }, 'hook', event);
const context = (run: HookRun) =>
  run.stdout ? (JSON.parse(run.stdout).hookSpecificOutput?.additionalContext as string | undefined) : undefined;
const dir = (session = SESSION) => join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints', session);
const transcript = (tokens: number, name = 'main.jsonl') =>
  sandbox.write(
    `claude/${name}`,
    aTranscript()
      .user('go')
      .assistant({ cacheRead: tokens - 5 })
      .toString(),
  );

const preCompact = (session = SESSION) =>
  hook('pre-compact', { session_id: session, transcript_path: transcript(150_000), trigger: 'manual', custom_instructions: null });
const postCompact = (summary: unknown = SUMMARY, session = SESSION) =>
  hook('post-compact', {
    session_id: session,
    transcript_path: transcript(3_000),
    hook_event_name: 'PostCompact',
    trigger: 'manual',
    compact_summary: summary,
  });
const sessionStart = (source: string, session = SESSION) =>
  hook('session-start', { session_id: session, transcript_path: transcript(3_000, `${session}.jsonl`), source });
const prompt = (session = SESSION) =>
  hook('user-prompt-submit', { session_id: session, transcript_path: transcript(3_000), prompt: 'go on' });

describe('PreCompact tells the summariser what must survive', () => {
  it('plain text with the next step, decisions and files in flight, and the checkpoint', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    const run = await preCompact();
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`checkpointed as cx-001 (.claude/context-ceiling/checkpoints/${SESSION}/cx-001-checkpoint.json)`);
    expect(run.stdout).toContain('(1) Next step: "Register post-compact in hooks.json and run the e2e suite";');
    expect(run.stdout).toContain('Open decision: "D-7: Keep the summary in its own file beside the checkpoint";');
    expect(run.stdout).toContain('(5) File in flight: "src/hooks/post-compact.ts".');
    expect(run.stdout).not.toContain('verbatim');
    expect(() => JSON.parse(run.stdout)).toThrow();
  });

  it('without ORCHESTRATION.yaml it still asks for the next step and names the checkpoint', async () => {
    const run = await preCompact();
    expect(run.stdout).toContain('No resumption state was recorded (no ORCHESTRATION.yaml in the project).');
    expect(run.stdout).toContain('Name checkpoint cx-001');
  });
});

describe('PostCompact keeps the summary', () => {
  it('beside the newest checkpoint, atomically, never touching the checkpoint; records what it dropped; prints nothing', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact();
    await preCompact();
    const checkpoint = readFileSync(join(dir(), 'cx-002-checkpoint.json'), 'utf8');
    expectSilent(await postCompact(), 'summary-kept');
    expect(readFileSync(join(dir(), 'cx-002-checkpoint.json'), 'utf8')).toBe(checkpoint);
    expect(readdirSync(dir()).sort()).toEqual(['cx-001-checkpoint.json', 'cx-002-checkpoint.json', 'cx-002-summary.json']);
    const kept = JSON.parse(readFileSync(join(dir(), 'cx-002-summary.json'), 'utf8'));
    expect(kept).toMatchObject({
      schema: 'context-ceiling.summary/1',
      checkpointId: 'cx-002',
      sessionId: SESSION,
      trigger: 'manual',
      summary: SUMMARY,
      truncated: false,
    });
    expect(kept.missing).toEqual([
      { kind: 'next-step', text: 'Register post-compact in hooks.json and run the e2e suite' },
      { kind: 'file', text: 'src/hooks/post-compact.ts' },
    ]);
  });

  it('caps a huge summary', async () => {
    await preCompact();
    await postCompact('s'.repeat(200_000));
    const kept = JSON.parse(readFileSync(join(dir(), 'cx-001-summary.json'), 'utf8'));
    expect(kept).toMatchObject({ summaryChars: 200_000, truncated: true });
    expect(kept.summary.length).toBe(48_000);
  });

  it('without a checkpoint, or without a summary, writes nothing', async () => {
    expectSilent(await postCompact(), 'no-checkpoint');
    expect(existsSync(dir())).toBe(false);
    await preCompact();
    for (const summary of [null, '', '  ', 42]) await postCompact(summary);
    expect(readdirSync(dir())).toEqual(['cx-001-checkpoint.json']);
  });

  it('a planted symlink in place of the summary is replaced, never written through', async () => {
    await preCompact();
    const victim = sandbox.write('victim.txt', 'original');
    symlinkSync(victim, join(dir(), 'cx-001-summary.json'));
    await postCompact();
    expect(readFileSync(victim, 'utf8')).toBe('original');
    expect(JSON.parse(readFileSync(join(dir(), 'cx-001-summary.json'), 'utf8')).checkpointId).toBe('cx-001');
  });
});

describe('the alert leads with what the summary dropped', () => {
  it('SessionStart compact runs before PostCompact: the alert as today, then what was dropped, once, on the next prompt', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact();
    const alert = context(await sessionStart('compact'))!;
    expect(alert).toContain('CONTEXT COMPACTION OCCURRED');
    expect(alert).not.toContain('THE SUMMARY DROPPED');
    await postCompact();
    const next = context(await prompt())!;
    expect(next).toContain("<compaction-alert>\nClaude Code's summary of the last compaction (checkpoint cx-001) left out");
    expect(next).toContain('- Next step: "Register post-compact in hooks.json and run the e2e suite"');
    expect(next).toContain('- File in flight: "src/hooks/post-compact.ts"');
    expect(context(await prompt())).not.toContain('<compaction-alert>');
  });

  it('when the summary is kept before the alert goes out (the next-prompt fallback), the alert itself leads with it', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact();
    await postCompact();
    const alert = context(await prompt())!;
    expect(alert.indexOf('THE SUMMARY DROPPED THESE')).toBeGreaterThan(0);
    expect(alert.indexOf('THE SUMMARY DROPPED THESE')).toBeLessThan(alert.indexOf('CHECKPOINT:'));
    expect(alert.length / 4).toBeLessThanOrEqual(500);
    expect(context(await prompt())).not.toContain('<compaction-alert>');
  });

  it('a summary that kept everything adds nothing', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact();
    await sessionStart('compact');
    await postCompact(`${SUMMARY}\nNext: register post-compact in hooks.json and run the e2e suite (src/hooks/post-compact.ts).`);
    expect(context(await prompt())).not.toContain('<compaction-alert>');
  });
});

describe('SessionStart clear continues the work', () => {
  it('from the newest checkpoint even after its alert was acknowledged, with the kept summary, every time', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact('older-session');
    await new Promise((resolve) => setTimeout(resolve, 20)); // distinct modification times
    await preCompact();
    await sessionStart('compact'); // acknowledges cx-001 of this session
    await postCompact();
    for (const session of ['cleared-1', 'cleared-2']) {
      const text = context(await sessionStart('clear', session))!;
      expect(text).toMatch(/^<resumption-context>\n/);
      expect(text).toContain(`${SESSION}/cx-001-checkpoint.json`);
      expect(text).toContain('NEXT ACTION: "Register post-compact in hooks.json and run the e2e suite"');
      expect(text).toContain('SUMMARY KEPT AT COMPACTION (cx-001');
      expect(text).toContain('1. Current Work: Phase 4 (Wiring), registering the PostCompact hook.');
      expect(text.length / 4).toBeLessThanOrEqual(1000);
    }
  });

  it('startup and resume keep today’s rule: an acknowledged checkpoint is not offered', async () => {
    await preCompact();
    await sessionStart('compact');
    for (const source of ['startup', 'resume']) expectSilent(await sessionStart(source, `new-${source}`), 'no-checkpoint-to-resume');
    expect(context(await sessionStart('clear', 'new-clear'))).toContain('<resumption-context>');
  });

  it('a kept summary planted as garbage or a symlink is ignored, never read through', async () => {
    await preCompact();
    const secret = sandbox.write('secret.txt', JSON.stringify({ checkpointId: 'cx-001', summary: 'SECRET FROM OUTSIDE' }));
    symlinkSync(secret, join(dir(), 'cx-001-summary.json'));
    expect(context(await sessionStart('clear', 'c-1'))).not.toContain('SECRET');
    writeFileSync(join(dir(), 'cx-009-summary.json'), '\u0000{');
    expect(context(await sessionStart('clear', 'c-2'))).toContain('<resumption-context>');
  });

  it('a kept summary planted as a FIFO, or over the size cap, is read as absent without hanging', async () => {
    await preCompact();
    execFileSync('mkfifo', [join(dir(), 'cx-001-summary.json')]);
    const fifo = context(await sessionStart('clear', 'c-1'))!;
    expect(fifo).toContain('<resumption-context>');
    expect(fifo).not.toContain('SUMMARY KEPT');
    rmSync(join(dir(), 'cx-001-summary.json'));
    writeFileSync(
      join(dir(), 'cx-001-summary.json'),
      JSON.stringify({ checkpointId: 'cx-001', summary: `OVERSIZED ${'x'.repeat(600 * 1024)}` }),
    );
    expect(context(await sessionStart('clear', 'c-2'))).not.toContain('SUMMARY KEPT');
  });
});
