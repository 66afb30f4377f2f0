/**
 * The way back under the ceiling, in the real Claude Code (2.1.328, print mode,
 * fake API): where nobody is watching, a block ends by itself because Claude
 * Code compacts before its next request, and the same load then passes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { World } from './world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

describe('a block is temporary in an unattended session', () => {
  it('a load at 60 % of 1M is blocked, Claude Code compacts before its next request, and the same load passes', async () => {
    world = new World(undefined, { DEV_TEAM_CONTEXT_WINDOW: '1000000', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '41' });
    world.skill('deep-dive');
    world.write('project/notes.txt', 'notes\n');
    await world.start(['--strict']);
    world.reply(
      { cacheRead: 49_000, toolUse: { name: 'Read', input: { file_path: `${world.project}/notes.txt` } } },
      { cacheRead: 600_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
      { cacheRead: 30_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
      { cacheRead: 31_000, text: 'done' },
    );
    const run = await world.claude('work through the plan');
    expect(run.exitCode, run.stderr).toBe(0);
    const requests = world.api.requests;
    const blocked = 'context-ceiling: blocked Skill "deep-dive": context at 60% (600,005 of 1,000,000 tokens, window: env)';
    const loaded = 'You are running the deep-dive skill';
    const summaryAt = requests.findIndex((r) => r.isSummary);
    const blockSeenAt = requests.findIndex((r) => !r.isSummary && r.text.includes(blocked));
    const loadedAt = requests.findIndex((r) => r.text.includes(loaded));
    // The 600,005 turn's Skill call was refused; Claude Code compacted before its next model request;
    // the model's next request carries the refusal, and the same call then loaded the skill.
    expect(summaryAt, 'Claude Code compacted').toBeGreaterThan(0);
    expect(requests.slice(0, summaryAt).some((r) => r.text.includes(loaded))).toBe(false);
    expect(blockSeenAt).toBeGreaterThan(summaryAt);
    expect(loadedAt).toBeGreaterThan(blockSeenAt);
    expect(run.json?.permission_denials).toEqual([expect.objectContaining({ tool_name: 'Skill' })]);
    expect(world.compacted(run.sessionId!)).toBe(true);
    expect(world.checkpoints(run.sessionId!).length).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
