/**
 * Blocks end by themselves where nobody is watching: after `install --strict
 * --window 1000000`, a print-mode load at 60 % is blocked, Claude Code
 * compacts before its next request (the compaction point install set just
 * above the ceiling), and the same load then passes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { World } from './world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

// retry: until PreToolUse waits for its own turn's record (issue 9, "Judge the call's own turn"), the
// hook can read the transcript before the 600,005 turn lands and judge the previous one (49,005).
it('install --strict: blocked at 60 % of 1M, Claude Code compacts, the same Skill load passes', { retry: 2 }, async () => {
  world = new World();
  world.skill('deep-dive');
  await world.start(['--strict', '--window', '1000000']);
  expect(JSON.parse(readFileSync(join(world.project, '.claude', 'settings.json'), 'utf8')).env).toEqual({
    DEV_TEAM_CONTEXT_WINDOW: '1000000',
    DEV_TEAM_CONTEXT_STRICT: 'on',
    CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '41',
  });
  world.reply({ cacheRead: 49_000, text: 'ready' }); // a run whose first response is over the point would not compact (CLAUDE-CODE-FACTS.md)
  const first = await world.claude('get ready');
  expect(first.exitCode, first.stderr).toBe(0);
  const mark = world.api.requests.length - 1;
  world.reply(
    { cacheRead: 600_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
    { cacheRead: 5_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
    { cacheRead: 6_000, text: 'done' },
  );
  const run = await world.claude('use the deep-dive skill', { resume: first.sessionId! });
  expect(run.exitCode, run.stderr).toBe(0);
  const later = world.api.requests.filter((request) => request.index > mark);
  const indexOf = (found: (typeof later)[number] | undefined) => found?.index ?? -1;
  // The first request after the block may already be Claude Code's summarisation request, which quotes it.
  const blockedAt = indexOf(later.find((request) => request.text.includes('context-ceiling: blocked Skill "deep-dive": context at 60% (600,005 of 1,000,000 tokens, window: env)')));
  const summaries = later.filter((request) => request.isSummary).map((request) => request.index);
  const loadedAt = indexOf(later.find((request) => !request.isSummary && request.text.includes('You are running the deep-dive skill')));
  expect(blockedAt, 'the 60 % load is blocked').toBeGreaterThan(mark);
  expect(summaries.length, 'Claude Code compacts').toBeGreaterThan(0);
  expect(summaries[0], 'right after the block, before any other model request').toBe(blockedAt);
  expect(loadedAt, 'the same load then passes').toBeGreaterThan(summaries[summaries.length - 1]!);
  expect(world.compacted(first.sessionId!)).toBe(true);
});
