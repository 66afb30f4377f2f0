/**
 * Compaction that keeps what matters, in the real Claude Code (the pinned client) against
 * the scripted API: what the summariser is told, the summary kept, the alert,
 * and /clear continuing the work. Assertions are on what the fake server
 * received (what the model and the summariser saw) and on files written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { World, stopWorldsAfterEach } from './world.js';
import { NEXT_STEP, ORCHESTRATION, SUMMARY } from '../helpers/compaction-fixture.js';

let world: World | undefined;
stopWorldsAfterEach();

describe('compaction that keeps what matters, in the real client', () => {
  it('/compact <text>: the summariser gets the text and our next step; the summary is kept; the alert says what it dropped; /clear continues', async () => {
    world = new World(undefined, { DEV_TEAM_CONTEXT_WINDOW: '1000000' });
    world.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    world.api.summaryText = SUMMARY;
    await world.start();
    const session = await world.sessionAt(120_000);

    await world.compact(session, 'keep the parser notes');

    // The summariser's instructions: the person's text, then ours, plain (no JSON).
    const summaries = world.api.requests.filter((request) => request.isSummary);
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    const instructions = summaries[0]!.text;
    expect(instructions).toContain(
      'Additional Instructions:\nkeep the parser notes\n\ncontext-ceiling: this compaction is checkpointed as cx-001',
    );
    expect(instructions).toContain(`Next step: "${NEXT_STEP}"`);
    expect(instructions).toContain('File in flight: "src/hooks/post-compact.ts"');
    expect(instructions).not.toContain('systemMessage');
    // Nothing raw shown as the PreCompact result (the person sees our plain text, not a JSON object).
    const transcript = readFileSync(world.transcript(session), 'utf8');
    // The hook's command line, whichever runtime it names, then our plain text.
    expect(transcript).toMatch(/PreCompact \[[^\]]*\] completed successfully: context-ceiling: this compaction is checkpointed as cx-001/);
    expect(transcript).not.toMatch(/PreCompact \[[^\]]*\] completed successfully: \{/);

    // PostCompact kept the summary beside the checkpoint, with what it dropped.
    const dir = join(world.project, '.claude', 'context-ceiling', 'checkpoints', session);
    const kept = JSON.parse(readFileSync(join(dir, 'cx-001-summary.json'), 'utf8'));
    expect(kept).toMatchObject({ checkpointId: 'cx-001', sessionId: session, trigger: 'manual' });
    expect(kept.summary).toContain('1. Current Work: Phase 4 (Wiring)');
    expect(kept.missing).toEqual([
      { kind: 'next-step', text: NEXT_STEP },
      { kind: 'file', text: 'src/hooks/post-compact.ts' },
    ]);
    expect(world.checkpoints(session)).toHaveLength(1); // the checkpoint is not rewritten or duplicated

    // The alert reaches the model, and so does what the summary dropped.
    world.reply({ cacheRead: 5_000, text: 'back on track' });
    const resumed = await world.claude('where were we?', { resume: session });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const seen = world.api.conversation.map((request) => request.text).join('\n');
    expect(seen).toContain('CONTEXT COMPACTION OCCURRED');
    expect(seen).toContain('THE SUMMARY DROPPED THESE');
    expect(seen).toContain(`Next step: "${NEXT_STEP}"`);

    // /clear starts a new session; its next turn carries the resumption context with the kept summary.
    const clear = await world.claude('/clear', { resume: session });
    expect(clear.exitCode, clear.stderr).toBe(0);
    const cleared = clear.sessionId!;
    expect(cleared).not.toBe(session);
    const before = world.api.conversation.length;
    world.reply({ cacheRead: 4_000, text: 'continuing' });
    const next = await world.claude('continue', { resume: cleared });
    expect(next.exitCode, next.stderr).toBe(0);
    const request = world.api.conversation.slice(before).find((r) => r.text.includes('<resumption-context>'));
    expect(request, 'no request after /clear carried <resumption-context>').toBeDefined();
    expect(request!.text).toContain(`NEXT ACTION: "${NEXT_STEP}"`);
    expect(request!.text).toContain('SUMMARY KEPT AT COMPACTION (cx-001');
    expect(request!.text).toContain('1. Current Work: Phase 4 (Wiring), registering the PostCompact hook.');
  });

  it('Claude Code cuts PreCompact text at 10,000 characters (PRECOMPACT_OUTPUT_LIMIT); the summariser brief stays far inside', async () => {
    world = new World(undefined, { DEV_TEAM_CONTEXT_WINDOW: '1000000' });
    await world.start();
    const settingsPath = join(world.project, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
    const loud = `node -e "process.stdout.write('START' + 'x'.repeat(11990) + 'END')"`;
    settings.hooks.PreCompact = [{ hooks: [{ type: 'command', command: loud }] }];
    writeFileSync(settingsPath, JSON.stringify(settings, null, 2));
    expect((await world.claude('/compact', { resume: await world.sessionAt(120_000) })).exitCode).toBe(0);
    const instructions = world.api.requests.find((request) => request.isSummary)!.text;
    const kept = /START(x*)/.exec(instructions)![1]!;
    expect(kept.length + 'START'.length).toBe(10_000);
    expect(instructions).not.toContain('xEND');
  });
});
