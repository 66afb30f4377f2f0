// @module-tag hook
/** UserPromptSubmit and SessionStart after compactions, and the checkpoints CLI, run as Claude Code runs them on real files in temp projects. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { context, hookEvents, ORCHESTRATION, SESSION } from '../helpers/hook-events.js';
import { recordAsOurs } from '../helpers/own-checkpoints.js';
import { expectSilent, makeSandbox, ROOT, runCli, runCliOk, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const { hook, checkpointDir, transcriptAt, preCompact, prompt, sessionStart } = hookEvents(() => sandbox);

describe('UserPromptSubmit', () => {
  it('injects the <context-monitor> block with the tier', async () => {
    sandbox.write('home/.claude/skills/context-summarization/SKILL.md', '---\nname: context-summarization\ndescription: d\n---\n');
    const text = context(await prompt(transcriptAt(130_000)));
    expect(text).toBe(readFileSync(join(ROOT, 'test', 'golden', 'monitor-warning.txt'), 'utf8'));
  });

  it('without an installed recovery skill the monitor points to /compact, never to a skill that is not there', async () => {
    const text = context(await prompt(transcriptAt(130_000)));
    expect(text).toContain('Run /compact before loading any agent or skill.');
    expect(text).not.toContain('context-summarization');
  });

  it('reports "unknown since compaction" honestly', async () => {
    const transcript = sandbox.write(
      'claude/c.jsonl',
      aTranscript().assistant({ cacheRead: 150_000 }).compactBoundary({ trigger: 'manual' }).toString(),
    );
    const text = context(await prompt(transcript));
    expect(text).toContain('Context unknown since compaction');
    expect(text).not.toMatch(/\b0%/);
  });

  it('the monitor can be turned off by env and by policy; then a prompt without an alert is silent', async () => {
    expectSilent(await prompt(transcriptAt(20_000), { DEV_TEAM_CONTEXT_MONITOR: 'off' }), 'monitor-off');
    sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ monitor: false }));
    expectSilent(await prompt(transcriptAt(20_000)), 'monitor-off');
  });

  it('after a checkpoint: the compaction alert once, acknowledged with a marker file; the checkpoint itself untouched', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact();
    const path = join(checkpointDir(), 'cx-001-checkpoint.json');
    const before = readFileSync(path, 'utf8');
    const first = context(await prompt(transcriptAt(3_000)))!;
    expect(first).toContain('<context-monitor>');
    expect(first).toContain('<compaction-alert>');
    expect(first).toContain(`CHECKPOINT: ${path}`);
    expect(first).toContain('YOU WERE DOING: "Phase 2 (Core License Changes), qg-2-iteration-1"');
    expect(first).toContain('4. Continue from the next step recorded there: "Apply the DA-001 fix, then re-score"');
    expect(existsSync(join(checkpointDir(), 'cx-001-checkpoint.acknowledged'))).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(before);
    const second = context(await prompt(transcriptAt(3_000)))!;
    expect(second).toContain('<context-monitor>');
    expect(second).not.toContain('<compaction-alert>');
  });

  it('after the recovery skill’s save and one /compact: one compaction, named as the one the skill asked for; one line for the person', async () => {
    // The recovery skill saves twice (before and after updating the resumption section), then the person runs /compact.
    const state = join(sandbox.home, '.local', 'state', 'context-ceiling');
    mkdirSync(state, { recursive: true, mode: 0o700 });
    for (const sequence of [1, 2]) {
      const saved = sandbox.write(
        `project/.claude/context-ceiling/checkpoints/${SESSION}/cx-00${sequence}-checkpoint.json`,
        JSON.stringify({ id: `cx-00${sequence}`, sequence, trigger: { type: 'skill' }, timestamp: '2026-11-25T10:00:00.000Z' }),
      );
      recordAsOurs(state, sandbox.project, saved, SESSION);
    }
    const compacted = await preCompact('manual');
    expect(compacted.stdout.trimEnd()).not.toContain('\n');
    expect(compacted.stdout).toContain('This compaction is the one the recovery skill asked for after saving checkpoint cx-002');
    const text = context(await prompt(transcriptAt(3_000)))!;
    expect(text).toContain(`CHECKPOINT: ${join(checkpointDir(), 'cx-003-checkpoint.json')}`);
    expect(text).not.toContain('COMPACTION EVENT');
    expect(text).toContain(
      'This is the compaction the recovery skill asked for after saving checkpoint cx-002: it is done. Do not ask for /compact again',
    );
    expect(text).toContain('Compactions: 1. Last checkpoint: cx-003 (/compact');
  });

  it("the monitor counts and dates the session's checkpoints from what PreCompact recorded, not from files the project can change", async () => {
    await preCompact('manual');
    const path = join(checkpointDir(), 'cx-001-checkpoint.json');
    const written = JSON.parse(readFileSync(path, 'utf8'));
    // Rewritten in the project since: a recovery skill's save, a year earlier. Our private record says what was written.
    writeFileSync(path, JSON.stringify({ ...written, trigger: { type: 'skill' }, timestamp: '2025-11-25T10:00:00.000Z' }));
    const text = context(await prompt(transcriptAt(3_000)))!;
    expect(text).toContain('Compactions: 1. Last checkpoint: cx-001 (/compact');
    expect(text).not.toContain('<compaction-alert>'); // its bytes are not the ones recorded: never shown as the session's state
  });

  it('a second /compact in the session is COMPACTION EVENT 2 of 2, the recovery skill’s saves between them not counted', async () => {
    await preCompact('manual');
    sandbox.write(
      `project/.claude/context-ceiling/checkpoints/${SESSION}/cx-002-checkpoint.json`,
      JSON.stringify({ id: 'cx-002', sequence: 2, trigger: { type: 'skill' } }),
    );
    await preCompact('manual');
    const text = context(await prompt(transcriptAt(3_000)))!;
    expect(text).toContain('COMPACTION EVENT: 2 of 2 this session');
  });

  it('alerts only for this session’s checkpoints', async () => {
    await preCompact();
    expect(context(await prompt(transcriptAt(3_000), {}, 'another-session'))).not.toContain('<compaction-alert>');
  });

  it('a checkpoint with acknowledged: true in its JSON is never shown', async () => {
    sandbox.write(
      `project/.claude/context-ceiling/checkpoints/${SESSION}/cx-001-checkpoint.json`,
      JSON.stringify({ id: 'cx-001', sequence: 1, acknowledged: true }),
    );
    expect(context(await prompt(transcriptAt(3_000), { DEV_TEAM_CONTEXT_MONITOR: 'off' }))).toBeUndefined();
  });

  it('the alert is still shown when the monitor is off', async () => {
    await preCompact();
    const text = context(await prompt(transcriptAt(3_000), { DEV_TEAM_CONTEXT_MONITOR: 'off' }))!;
    expect(text.startsWith('<compaction-alert>')).toBe(true);
  });
});

describe('SessionStart', () => {
  it('source "compact": the alert in the same turn, acknowledged, so the next prompt does not repeat it', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact();
    const run = await sessionStart('compact');
    expect(JSON.parse(run.stdout).hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(context(run)).toContain('<compaction-alert>');
    expect(context(await prompt(transcriptAt(3_000)))).not.toContain('<compaction-alert>');
  });

  it('source "compact" with nothing pending is silent', async () => {
    expectSilent(await sessionStart('compact'), 'no-pending-checkpoint');
  });

  // ("clear" shows the newest checkpoint every time: test/blackbox/compaction.test.ts)
  it.each(['startup', 'resume'])('source "%s": the resumption context from an earlier session’s checkpoint, once', async (source) => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact();
    const text = context(await sessionStart(source, 'new-session'))!;
    expect(text).toMatch(/^<resumption-context>\n/);
    expect(text).toContain('WORKFLOW: FEAT-015  PROJECT: PROJ-001');
    expect(text).toContain('NEXT ACTION: "Apply the DA-001 fix, then re-score"');
    expect(text.length / 4).toBeLessThanOrEqual(1000);
    expectSilent(await sessionStart(source, 'third-session'), 'no-checkpoint-to-resume');
  });

  it('a corrupt checkpoint of ours yields a minimal generic alert, never a crash or a silent skip', async () => {
    // Ours (PreCompact wrote and recorded them), then torn on disk: only our words and the path are shown.
    await preCompact('auto');
    await hook('pre-compact', { session_id: 'old-session', transcript_path: transcriptAt(180_000), trigger: 'auto' });
    sandbox.write(`project/.claude/context-ceiling/checkpoints/${SESSION}/cx-001-checkpoint.json`, '{"id": "cx-001", "sequ');
    const text = context(await sessionStart('compact'))!;
    expect(text).toContain('<compaction-alert>');
    expect(text).toContain('could not be read');
    sandbox.write('project/.claude/context-ceiling/checkpoints/old-session/cx-001-checkpoint.json', '\u0000garbage');
    expect(context(await sessionStart('startup', 'new-session'))).toContain('its checkpoint could not be read');
  });
});

describe('a multi-compaction session', () => {
  it('each compaction alerts once, numbered "COMPACTION EVENT k of n"', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact('auto');
    const first = context(await sessionStart('compact'))!;
    expect(first).toContain('cx-001-checkpoint.json');
    expect(first).not.toContain('COMPACTION EVENT');
    expect(context(await prompt(transcriptAt(30_000)))).not.toContain('<compaction-alert>');

    await preCompact('manual');
    const second = context(await prompt(transcriptAt(4_000)))!; // no SessionStart this time: the prompt is the fallback channel
    expect(second).toContain('COMPACTION EVENT: 2 of 2 this session');
    expect(second).toContain('TRIGGER: manual');

    await preCompact('auto');
    await preCompact('auto'); // PreCompact firing twice for one compaction: the later one wins
    const third = context(await sessionStart('compact'))!;
    expect(third).toContain('COMPACTION EVENT: 4 of 4 this session');
    expect(third).toContain('cx-004-checkpoint.json');
    expect(
      readdirSync(checkpointDir())
        .filter((f) => f.endsWith('.acknowledged'))
        .sort(),
    ).toEqual(['cx-001', 'cx-002', 'cx-003', 'cx-004'].map((id) => `${id}-checkpoint.acknowledged`));
    expect(context(await prompt(transcriptAt(4_000)))).not.toContain('<compaction-alert>');
  });

  it('SessionStart and UserPromptSubmit racing show an alert exactly once', async () => {
    await preCompact();
    const runs = await Promise.all([
      sessionStart('compact'),
      prompt(transcriptAt(3_000)),
      sessionStart('compact'),
      prompt(transcriptAt(3_000)),
    ]);
    expect(runs.filter((run) => context(run)?.includes('<compaction-alert>'))).toHaveLength(1);
  });
});

describe('checkpoints CLI', () => {
  const cli = (args: string[]) => runCli(sandbox, args, { CLAUDE_PROJECT_DIR: sandbox.project });
  const cliOk = (args: string[]) => runCliOk(sandbox, args, { CLAUDE_PROJECT_DIR: sandbox.project });

  it('list, show, ack, with --json', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact('auto');
    await preCompact('manual');
    const list = JSON.parse((await cliOk(['checkpoints', 'list', '--json'])).stdout);
    expect(list.map((c: { id: string; acknowledged: boolean; trigger: string }) => [c.id, c.trigger, c.acknowledged])).toEqual([
      [`${SESSION}/cx-001`, 'auto', false],
      [`${SESSION}/cx-002`, 'manual', false],
    ]);
    const human = await cliOk(['checkpoints', 'list']);
    expect(human.stdout).toMatch(new RegExp(`^${SESSION}/cx-001\\s+\\S+\\s+auto\\s+90%\\s+EMERGENCY\\s+no\\s+ours$`, 'm'));
    const shown = await cliOk(['checkpoints', 'show', 'cx-002']);
    expect(shown.stdout).toContain('<compaction-alert>');
    expect(shown.stdout).toContain('COMPACTION EVENT: 2 of 2 this session');
    expect(JSON.parse((await cliOk(['checkpoints', 'show', 'cx-001', '--json'])).stdout)).toMatchObject({
      id: 'cx-001',
      trigger: { type: 'auto' },
    });
    expect((await cliOk(['checkpoints', 'ack', 'cx-001'])).stdout).toBe(`${SESSION}/cx-001: acknowledged\n`);
    expect((await cliOk(['checkpoints', 'ack', '--all'])).stdout).toBe(`${SESSION}/cx-002: acknowledged\n`);
    expect((await cliOk(['checkpoints', 'ack', '--all'])).stdout).toBe('Nothing to acknowledge.\n');
    expect(context(await prompt(transcriptAt(3_000), { DEV_TEAM_CONTEXT_MONITOR: 'off' }))).toBeUndefined();
  });

  it('unknown and ambiguous ids are clear errors', async () => {
    expect(await cli(['checkpoints', 'show', 'cx-009'])).toMatchObject({
      exitCode: 1,
      stderr: 'context-ceiling: no checkpoint cx-009 (this project has none)\n',
    });
    await preCompact();
    await hook('pre-compact', { session_id: 'other', transcript_path: transcriptAt(1_000), trigger: 'auto' });
    const run = await cli(['checkpoints', 'show', 'cx-001']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/cx-001 is ambiguous/);
    expect((await cliOk(['checkpoints', 'show', 'cx-001', '--session', 'other'])).exitCode).toBe(0);
    expect((await cli(['checkpoints', 'ack'])).exitCode).toBe(1);
  });

  it('no checkpoints', async () => {
    expect((await cliOk(['checkpoints', 'list'])).stdout).toBe('No checkpoints in this project.\n');
  });
});
