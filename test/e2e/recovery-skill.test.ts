/**
 * The way out exists in the real client: a strict block names the recovery
 * skill under the name it is invoked by, the model's Skill call for it loads
 * it (never "Unknown skill"), and its save step lands a checkpoint the resume
 * path reads. One route per install: the plugin (`--plugin-dir <clone>/plugin`) and `install`.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT } from '../helpers/sandbox.js';
import { blockReason, STRICT } from './routes.js';
import { World, stopWorldsAfterEach } from './world.js';

let world: World | undefined;
stopWorldsAfterEach();

async function blockThenRecover(w: World, skill: string, args: string[]) {
  w.skill('deep-dive');
  w.reply({ cacheRead: 89_000, text: 'ready' });
  const first = await w.claude('get ready', { env: STRICT, args });
  expect(first.exitCode, first.stderr).toBe(0);
  const session = first.sessionId!;
  const mark = w.api.requests.length - 1;
  w.reply(
    { cacheRead: 90_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
    { cacheRead: 90_500, toolUse: { name: 'Skill', input: { skill } } },
    { cacheRead: 91_000, text: 'saved' },
  );
  const run = await w.claude('use the deep-dive skill', { resume: session, env: STRICT, args });
  expect(run.exitCode, run.stderr).toBe(0);
  const [, afterBlock, afterSkill] = w.api.conversation.filter((request) => request.index > mark);
  return { session, afterBlock: afterBlock!.text, afterSkill: afterSkill!.text };
}

describe('the recovery skill in the real client', () => {
  it('as a plugin: the block names /context-ceiling:context-summarization, which loads and saves a checkpoint', async () => {
    world = new World();
    await world.start(null);
    const { session, afterBlock, afterSkill } = await blockThenRecover(world, 'context-ceiling:context-summarization', [
      '--plugin-dir',
      join(ROOT, 'plugin'),
    ]);
    expect(afterBlock).toContain(blockReason('context-ceiling:context-summarization'));
    expect(afterSkill).not.toContain('Unknown skill');
    expect(afterSkill).toContain('Back under the context ceiling');
    expect(afterSkill).toMatch(/context-ceiling: checkpoint cx-001 saved at context fill 45% \(90,505 of 200,000 tokens, window: env\)/);
    expect(afterSkill).toContain('This session is unattended (print mode or SDK)');
    const [checkpoint] = world.checkpoints(session);
    expect(checkpoint?.json).toMatchObject({
      id: 'cx-001',
      sessionId: session,
      trigger: { type: 'skill' },
      session: { projectDir: world.project },
    });
  });

  it('installed by `install`: the block names /context-summarization, the copied skill loads and saves through the runtime copy', async () => {
    world = new World();
    await world.start([]);
    const { session, afterBlock, afterSkill } = await blockThenRecover(world, 'context-summarization', []);
    expect(afterBlock).toContain(blockReason('context-summarization'));
    expect(afterSkill).not.toContain('Unknown skill');
    expect(afterSkill).toMatch(/context-ceiling: checkpoint cx-001 saved at context fill 45% \(90,505 of 200,000 tokens, window: env\)/);
    expect(afterSkill).toContain('This session is unattended (print mode or SDK)');
    expect(world.checkpoints(session)[0]?.json).toMatchObject({ trigger: { type: 'skill' }, sessionId: session });
  });
});
