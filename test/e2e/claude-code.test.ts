/**
 * The product inside the real Claude Code (the pinned client), offline against
 * a scripted Messages API on loopback. Every assertion is on what the fake
 * server received, i.e. what the model actually saw, or on files written.
 *
 * Claude Code may write a turn's transcript record only after that turn's
 * PreToolUse started (the guard waits for it), and in a brand-new print-mode
 * session the transcript does not exist before the first turn, so most
 * scenarios first run a turn that sets the occupancy, then resume the session
 * for the turn under test; 2c runs a brand-new session's first turn.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { type RecordedRequest, toolResult, toolUseId } from './fake-api.js';
import { Terminal } from './terminal.js';
import { expectRunBy, World, notices, stopWorldsAfterEach, verdicts } from './world.js';

let world: World | undefined;
stopWorldsAfterEach();

const count = (text: string, needle: string) => text.split(needle).length - 1;
const turnsAfter = (requests: RecordedRequest[], index: number) => requests.filter((request) => request.index > index);

describe('the guard in the real client', () => {
  it('1. below the ceiling a Skill call passes and nothing about the ceiling reaches the model', async () => {
    world = new World();
    world.skill('deep-dive');
    await world.start();
    const session = await world.sessionAt(40_000);
    const mark = world.api.requests.length - 1;
    world.reply({ cacheRead: 41_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } }, { cacheRead: 42_000, text: 'done' });
    const run = await world.claude('use the deep-dive skill', { resume: session });
    expect(run.exitCode, run.stderr).toBe(0);
    const [, afterTool] = turnsAfter(world.api.conversation, mark);
    expect(afterTool!.text).toContain('You are running the deep-dive skill');
    expect(afterTool!.text).not.toContain('PreToolUse:Skill hook');
    expect(afterTool!.text).not.toContain('Context ceiling warning');
    expect(afterTool!.text).not.toContain('context-ceiling:');
  });

  it('2. over the ceiling (warn) the Skill call proceeds and the next request carries the warning, judged by the calling turn', async () => {
    world = new World();
    world.skill('deep-dive');
    await world.start();
    const session = await world.sessionAt(450_000);
    const mark = world.api.requests.length - 1;
    world.reply({ cacheRead: 451_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } }, { cacheRead: 452_000, text: 'done' });
    const run = await world.claude('use the deep-dive skill', { resume: session });
    expect(run.exitCode, run.stderr).toBe(0);
    const [, afterTool] = turnsAfter(world.api.conversation, mark);
    expect(afterTool!.text).toContain('You are running the deep-dive skill'); // the skill ran
    // Nothing configured: the window is the default model's (1,000,000). The guard waits for the calling turn's
    // record (451,005), never judging the previous turn (450,000).
    expect(afterTool!.text).toContain(
      'PreToolUse:Skill hook additional context: Context ceiling warning: context is at 45% (451,005 of 1,000,000 tokens; window: model claude-opus-5-5), over the 40% ceiling. ' +
        'The Skill "deep-dive" call proceeds, but load no further agents, skills or workflows until you have brought context back under the ceiling: run the /context-summarization skill.',
    );
  });

  it("2b. install --strict with nothing else configured: 100,005 tokens (10 % of the default model's 1M window) loads, and no guard text reaches the model", async () => {
    world = new World();
    world.skill('deep-dive');
    await world.start(['--strict']);
    const session = await world.sessionAt(100_000);
    const mark = world.api.requests.length - 1;
    world.reply({ cacheRead: 100_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } }, { cacheRead: 101_000, text: 'done' });
    const run = await world.claude('use the deep-dive skill', { resume: session, stream: true, verdicts: true });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(verdicts(run)).toContain('pre-tool-use: allow below-ceiling'); // the guard ran, and let it through
    expect(notices(run)).toEqual([]);
    expect(run.json?.permission_denials).toEqual([]);
    expect(JSON.stringify(run.json?.modelUsage)).toContain('"contextWindow":1000000');
    const [prompted, afterTool] = turnsAfter(world.api.conversation, mark);
    // The hooks ran and measured against the model's window (the monitor says so on the prompt)...
    expect(prompted!.text).toContain('Context 10% (100,000 of 1,000,000 tokens, window: model claude-opus-5-5). Tier NOMINAL');
    // ...and the guard said nothing: the skill loaded, no warning, no block, no word about the window.
    expect(afterTool!.text).toContain('You are running the deep-dive skill');
    expect(afterTool!.text).not.toContain('PreToolUse:Skill hook');
    expect(afterTool!.text).not.toContain('Context ceiling warning');
    expect(afterTool!.text).not.toContain('context-ceiling:');
  });

  it("2c. a brand-new print session, as CI runs one (install --strict, nothing else configured): its first turn's Skill call at 50 % is judged by its own turn and refused", async () => {
    world = new World();
    world.skill('deep-dive');
    await world.start(['--strict']);
    world.reply({ cacheRead: 500_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } }, { cacheRead: 501_000, text: 'done' });
    const run = await world.claude('use the deep-dive skill', { stream: true, verdicts: true });
    expect(run.exitCode, run.stderr).toBe(0);
    const [call, refused] = world.api.conversation;
    // No turn before the prompt: the monitor says so. 2.1.332 has written the calling turn by PreToolUse, or writes it
    // while the guard waits for it (seen under load): the call is judged by it, never let through unmeasured.
    expect(call!.text).toContain('<context-monitor>\nContext not measured yet (no assistant turn with usage in the transcript).');
    const said = verdicts(run);
    expect(
      said.find((v) => v.startsWith('user-prompt-submit:')),
      JSON.stringify(said),
    ).toMatch(/^user-prompt-submit: monitor unmeasured (no-transcript|no-usage)$/);
    expect(said, JSON.stringify(said)).toContain('pre-tool-use: block over-ceiling-blocked');
    expect(toolResult(refused!, toolUseId(call!))).toEqual({
      isError: true,
      content:
        'PreToolUse:Skill hook error: Blocked by the context ceiling (strict mode), not an error in the Skill tool: ' +
        'context is at 50% (500,005 of 1,000,000 tokens; window: model claude-opus-5-5), over the 40% ceiling, so Skill "deep-dive" was not loaded. ' +
        'To bring context back under the ceiling, run the /context-summarization skill, then retry; recovery skills are never blocked.',
    });
  });

  it('3. strict mode on a stated window refuses the Skill call with the reason and the recovery skill; a recovery skill still runs', async () => {
    world = new World(undefined, { DEV_TEAM_CONTEXT_WINDOW: '200000' });
    world.skill('deep-dive');
    world.skill('context-summarization', 'Summarise the conversation so far into a short list.');
    await world.start(['--strict']);
    const session = await world.sessionAt(100_000);
    const mark = world.api.requests.length - 1;
    world.reply(
      { cacheRead: 101_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
      { cacheRead: 102_000, toolUse: { name: 'Skill', input: { skill: 'context-summarization' } } },
      { cacheRead: 103_000, text: 'summarised' },
    );
    const run = await world.claude('use the deep-dive skill', { resume: session });
    expect(run.exitCode, run.stderr).toBe(0);
    const [call, refused, recovered] = turnsAfter(world.api.conversation, mark);
    // A deny: the reason alone, after the client's label, with no command line in front of it.
    expect(toolResult(refused!, toolUseId(call!))).toEqual({
      isError: true,
      content:
        'PreToolUse:Skill hook error: Blocked by the context ceiling (strict mode), not an error in the Skill tool: ' +
        'context is at 50% (101,005 of 200,000 tokens; window: env), over the 40% ceiling, so Skill "deep-dive" was not loaded. ' +
        'To bring context back under the ceiling, run the /context-summarization skill, then retry; recovery skills are never blocked.',
    });
    expect(refused!.text).not.toContain('You are running the deep-dive skill');
    expect(recovered!.text).toContain('Summarise the conversation so far into a short list.');
    expect(count(recovered!.text, 'Blocked by the context ceiling')).toBe(1); // only the first call was blocked
  });
});

describe('the monitor in the real client', () => {
  it('4. the <context-monitor> block reaches the model on a prompt, with the right tier', async () => {
    world = new World();
    await world.start();
    const session = await world.sessionAt(750_000);
    const mark = world.api.requests.length - 1;
    world.reply({ cacheRead: 751_000, text: 'ok' });
    await world.claude('next step please', { resume: session });
    const [request] = turnsAfter(world.api.conversation, mark);
    expect(request!.text).toContain(
      'UserPromptSubmit hook additional context: <context-monitor>\nContext 75% (750,000 of 1,000,000 tokens, window: model claude-opus-5-5). Tier WARNING',
    );
    expect(request!.text).toContain('Recommended actions:');
  });

  it('4b. a newest turn further back than a hook reads (one 65 MiB record after it): the model is told how far the monitor read, not that there was no turn; the guard waits for the calling turn and blocks it', async () => {
    world = new World();
    world.skill('deep-dive');
    await world.start(['--strict']); // as CI runs it, nothing else configured
    const session = await world.sessionAt(900_000);
    const transcript = world.transcript(session);
    const last = readFileSync(transcript, 'utf8').trimEnd().split('\n').at(-1)!;
    // A hook's progress record (the commonest record type) whose output alone outgrows the 64 MiB a hook reads.
    const progress = {
      parentUuid: JSON.parse(last).uuid,
      isSidechain: false,
      type: 'progress',
      data: {
        type: 'hook_progress',
        hookEvent: 'PostToolUse',
        hookName: 'PostToolUse:Bash',
        command: 'cat big.log',
        output: 'x'.repeat(65 * 1024 * 1024),
      },
      uuid: randomUUID(),
      timestamp: new Date().toISOString(),
      sessionId: session,
      cwd: world.project,
    };
    appendFileSync(transcript, `${JSON.stringify(progress)}\n`);
    const mark = world.api.requests.length - 1;
    world.reply({ cacheRead: 901_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } }, { cacheRead: 902_000, text: 'done' });
    const run = await world.claude('use the deep-dive skill', { resume: session, stream: true, verdicts: true });
    expect(run.exitCode, run.stderr).toBe(0);
    const [prompted, afterTool] = turnsAfter(world.api.conversation, mark);
    expect(prompted!.text).toContain(
      'UserPromptSubmit hook additional context: <context-monitor>\nContext not measured: no turn with usage in the last 64.0 MiB of the transcript, the most a hook reads (maxScanBytes). Ceiling 40% of 1,000,000 tokens',
    );
    // (The first run's monitor, earlier in the same conversation, said "not measured yet": there was no turn then.)
    const newest = prompted!.text.split('<context-monitor>').at(-1)!.split('</context-monitor>')[0]!;
    expect(newest).toContain('Context not measured: no turn with usage in the last 64.0 MiB');
    expect(newest).not.toContain('no assistant turn');
    expect(verdicts(run)).toContain('user-prompt-submit: monitor unmeasured scan-cap');
    // 2.1.332 writes the calling turn after PreToolUse has started; with no turn within reach before it, the guard waits
    // for it (as for a newest turn that is not the call), measures 90 % and blocks in strict mode.
    expect(verdicts(run), JSON.stringify(verdicts(run))).toContain('pre-tool-use: block over-ceiling-blocked');
    expect(afterTool!.text).toContain('Blocked by the context ceiling (strict mode)');
    expect(afterTool!.text).not.toContain('You are running the deep-dive skill');
  });
});

const ORCHESTRATION = `resumption:
  current_phase: 3
  current_phase_name: Integration
  current_activity: wiring the billing adapter
  next_step: Finish the billing adapter, then run the integration tests
  updated_at: 2026-11-22T05:00:00Z
`;

describe('compaction in the real client', () => {
  it('5. an auto-compaction writes a checkpoint; the alert reaches the model once', async () => {
    const env = { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50', DEV_TEAM_CONTEXT_WINDOW: '1000000' };
    world = new World(undefined, env);
    world.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await world.start();
    const session = await world.sessionAt(951_005);
    // Resuming a session over the threshold triggers the compaction between turns; it can take a resume or two
    // to land (this version compacts this small session without a summarisation request or compact_boundary).
    const alerted = () => world!.api.conversation.some((r) => r.text.includes('<compaction-alert>'));
    for (let attempt = 0; attempt < 4 && !alerted(); attempt++) {
      world.reply({ cacheRead: 3_000, text: 'continuing' });
      const run = await world.claude('continue the work', { resume: session });
      expect(run.exitCode, run.stderr).toBe(0);
    }
    const checkpoints = world.checkpoints(session);
    expect(checkpoints.length).toBeGreaterThanOrEqual(1);
    expect(checkpoints[0]!.json).toMatchObject({
      trigger: { type: 'auto' },
      context: { occupancy: 951_005, windowSource: 'env' },
      orchestration: { status: 'loaded' },
    });
    // one more turn, so a repeated injection would show
    world.reply({ cacheRead: 4_000, text: 'still going' });
    await world.claude('and now?', { resume: session });
    const withAlert = world.api.conversation.filter((r) => r.text.includes('<compaction-alert>'));
    expect(withAlert.length).toBeGreaterThanOrEqual(1);
    expect(withAlert[0]!.text).toContain('TRIGGER: auto (PreCompact hook)');
    expect(withAlert[0]!.text).toContain(
      'Continue from the next step recorded there: "Finish the billing adapter, then run the integration tests"',
    );
    for (const request of world.api.conversation) expect(count(request.text, 'CONTEXT COMPACTION OCCURRED')).toBeLessThanOrEqual(1);
    expect(world.acknowledged(session).length).toBe(checkpoints.length);
    expectRunBy(world, ['pre-compact', 'session-start', 'user-prompt-submit']);
  });

  it('6. a manual /compact does the same with trigger manual', async () => {
    world = new World(undefined, { DEV_TEAM_CONTEXT_WINDOW: '1000000' });
    world.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await world.start();
    const session = await world.sessionAt(120_000);
    const checkpoints = await world.compact(session);
    expect(checkpoints).toHaveLength(1);
    expect(checkpoints[0]!.json).toMatchObject({ trigger: { type: 'manual' }, context: { occupancy: 120_000 } });
    world.reply({ cacheRead: 5_000, text: 'back on track' });
    await world.claude('where were we?', { resume: session });
    world.reply({ cacheRead: 6_000, text: 'yes' });
    await world.claude('go on', { resume: session });
    const withAlert = world.api.conversation.filter((r) => r.text.includes('<compaction-alert>'));
    expect(withAlert.length).toBeGreaterThanOrEqual(1);
    expect(withAlert[0]!.text).toContain('TRIGGER: manual (PreCompact hook)');
    for (const request of world.api.conversation) expect(count(request.text, 'CONTEXT COMPACTION OCCURRED')).toBeLessThanOrEqual(1);
    expect(world.acknowledged(session)).toEqual(['cx-001-checkpoint.acknowledged']);
    expectRunBy(world, ['pre-compact', 'post-compact', 'session-start', 'user-prompt-submit']);
  });
});

describe('the status line bridge (install --statusline; a plugin cannot set a status line)', () => {
  it('the interactive client reports the 1M window to our status line, and the guard then uses it in print mode', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    world = new World();
    world.skill('deep-dive');
    await world.start(['--statusline']);
    world.reply({ cacheRead: 500_000, cacheCreation: 1_000, text: 'hello there' });
    const terminal = Terminal.open(world);
    let sessionId: string;
    try {
      await terminal.waitFor(/ctx –\/1,000,000 no turn yet/); // before the first turn the window is already known
      terminal.type('say hello');
      await terminal.waitFor(/ctx 50% ▕████│█░░░░░▏ 501,005\/1,000,000 · over the 40% ceiling/);
      const bridgeDir = join(world.stateDir, 'statusline'); // the status line's record of this session, in the XDG state directory
      const [file] = readdirSync(bridgeDir);
      const bridge = JSON.parse(readFileSync(join(bridgeDir, file!), 'utf8'));
      expect(bridge).toMatchObject({
        windowTokens: 1_000_000,
        usageTokens: 501_005,
        modelId: 'claude-opus-5-5',
        version: inject('claudeVersion'),
      });
      sessionId = bridge.sessionId;
      expect(file).toBe(`${sessionId}.json`);
    } finally {
      await terminal.close();
    }
    // The same session in print mode (no status line there): the guard uses the bridged window.
    const mark = world.api.requests.length - 1;
    world.reply({ cacheRead: 501_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } }, { cacheRead: 502_000, text: 'done' });
    const run = await world.claude('use the deep-dive skill', { resume: sessionId });
    expect(run.exitCode, run.stderr).toBe(0);
    const [, afterTool] = turnsAfter(world.api.conversation, mark);
    // The model's own window is 1,000,000 too: the provenance says the status line's report was the one used.
    expect(afterTool!.text).toMatch(
      /Context ceiling warning: context is at 50% \(501,005 of 1,000,000 tokens; window: status line, \d+s old\)/,
    );
    expectRunBy(world, ['statusline', 'pre-tool-use']);
  }, 90_000);
});
