/**
 * Blocks end by themselves where nobody is watching: after `install --strict`
 * and nothing else (the window is the default model's, 1,000,000), a print-mode
 * load over the ceiling is blocked, Claude Code compacts before its next request
 * (the compaction point install set just above the ceiling), and the same load
 * then passes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { World, stopWorldsAfterEach } from './world.js';

let world: World | undefined;
stopWorldsAfterEach();

// The run starts at 401,005: over the 40 % ceiling (400,000) yet under the compaction point install set
// (41 % of 980,000 = 401,800), so the Skill call is blocked whichever turn PreToolUse reads (it can run
// before its own turn's record lands: CLAUDE-CODE-FACTS.md), and the run does not start by compacting.
it('install --strict alone: a Skill load over the ceiling is blocked, Claude Code compacts, the same load passes', async () => {
  world = new World();
  world.skill('deep-dive');
  await world.start(['--strict']);
  expect(JSON.parse(readFileSync(join(world.project, '.claude', 'settings.json'), 'utf8')).env).toEqual({
    DEV_TEAM_CONTEXT_STRICT: 'on',
    CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '41',
  });
  const session = await world.sessionAt(401_005);
  const mark = world.api.requests.length - 1;
  world.reply(
    { cacheRead: 600_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
    { cacheRead: 5_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
    // Observed: the first retry after the compaction can still be judged on the 600,005 turn, because
    // Claude Code had not yet written the boundary when PreToolUse read; a second retry then sees it.
    { cacheRead: 6_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
    { cacheRead: 7_000, text: 'done' },
  );
  const run = await world.claude('use the deep-dive skill', { resume: session });
  expect(run.exitCode, run.stderr).toBe(0);
  const later = world.api.requests.filter((request) => request.index > mark);
  const indexOf = (found: (typeof later)[number] | undefined) => found?.index ?? -1;
  // The first request after the block may already be Claude Code's summarisation request, which quotes it.
  const blocked =
    /PreToolUse:Skill hook error: Blocked by the context ceiling \(strict mode\), not an error in the Skill tool: context is at (40% \(401,005|60% \(600,005) of 1,000,000 tokens; window: model claude-opus-5-5\)/;
  const blockedAt = indexOf(later.find((request) => blocked.test(request.text)));
  const summaries = later.filter((request) => request.isSummary).map((request) => request.index);
  const loadedAt = indexOf(later.find((request) => !request.isSummary && request.text.includes('You are running the deep-dive skill')));
  expect(blockedAt, 'the load is blocked').toBeGreaterThan(mark);
  expect(summaries.length, 'Claude Code compacts').toBeGreaterThan(0);
  expect(summaries[0], 'right after the block, before any other model request').toBe(blockedAt);
  expect(loadedAt, 'the same load then passes').toBeGreaterThan(summaries[summaries.length - 1]!);
  expect(world.compacted(session)).toBe(true);
});
