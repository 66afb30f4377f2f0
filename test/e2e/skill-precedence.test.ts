/**
 * Which skill a Skill call reaches when two carry the same name, in the real client: the scripted model calls the
 * Skill tool and the next request shows which SKILL.md the client loaded ("Base directory for this skill: <dir>" and
 * the body's marker word). Observed on 2.1.331: the folder's name is the skill's name (front matter `name` is not),
 * a personal skill comes before a project's, and either comes before a plugin's, for a bare name and, with a folder
 * named `plugin:skill`, for a plugin-qualified one too. src/io/recovery-skill.ts names the recovery skill from this
 * order; a client that changes it fails here.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT } from '../helpers/sandbox.js';
import { blockedLoad, STRICT } from './routes.js';
import { World, stopWorldsAfterEach } from './world.js';

let world: World | undefined;
stopWorldsAfterEach();

const PLUGIN = ['--plugin-dir', join(ROOT, 'plugin')];
const OURS = 'Back under the context ceiling';

/** A skill in `<where>/<folder>/SKILL.md` whose body asks for `marker` (the description never names it). */
function twin(w: World, where: 'home' | 'project', folder: string, marker: string, name = folder): void {
  w.write(
    `${where}/.claude/skills/${folder}/SKILL.md`,
    `---\nname: ${name}\ndescription: a skill for the end-to-end test\n---\n\nSay the word ${marker}.\n`,
  );
}

/** The model calls Skill `{skill}`; what the client sent back on the next request (the loaded skill's text). */
async function call(w: World, skill: string, args: string[] = []): Promise<string> {
  const mark = w.api.requests.length;
  w.reply({ cacheRead: 9_000, toolUse: { name: 'Skill', input: { skill } } }, { cacheRead: 9_500, text: 'done' });
  const run = await w.claude(`use the ${skill} skill`, { args });
  expect(run.exitCode, run.stderr).toBe(0);
  const [, after] = w.api.conversation.filter((request) => request.index >= mark);
  const text = after!.text;
  expect(text).toContain(`Launching skill: ${skill}`);
  return text.slice(text.lastIndexOf(`Launching skill: ${skill}`));
}

describe('two skills under one name: which one the real client loads', () => {
  it('personal and project: a bare call loads the personal skill; the folder name counts, not the front matter', async () => {
    world = new World();
    await world.start(null);
    twin(world, 'home', 'twin', 'PERSONALMARK');
    twin(world, 'project', 'twin', 'PROJECTMARK');
    twin(world, 'home', 'other', 'OTHERMARK', 'solo');
    twin(world, 'project', 'solo', 'SOLOMARK');
    const loaded = await call(world, 'twin');
    expect(loaded).toContain(`Base directory for this skill: ${join(world.home, '.claude', 'skills', 'twin')}`);
    expect(loaded).toContain('PERSONALMARK');
    expect(loaded).not.toContain('PROJECTMARK');
    const solo = await call(world, 'solo');
    expect(solo).toContain('SOLOMARK');
    expect(solo).not.toContain('OTHERMARK');
  });

  it('our plugin and a project skill of its name: the bare name loads the project’s, the qualified name ours', async () => {
    world = new World();
    await world.start(null);
    twin(world, 'project', 'context-summarization', 'PROJECTMARK');
    const bare = await call(world, 'context-summarization', PLUGIN);
    expect(bare).toContain(`Base directory for this skill: ${join(world.project, '.claude', 'skills', 'context-summarization')}`);
    expect(bare).toContain('PROJECTMARK');
    expect(bare).not.toContain(OURS);
    const qualified = await call(world, 'context-ceiling:context-summarization', PLUGIN);
    expect(qualified).toContain(`Base directory for this skill: ${join(ROOT, 'plugin', 'skills', 'context-summarization')}`);
    expect(qualified).toContain(OURS);
    expect(qualified).not.toContain('PROJECTMARK');
  });

  it('our plugin and a personal skill of its name: the bare name loads the personal one; the plugin alone answers the bare name too', async () => {
    world = new World();
    await world.start(null);
    const alone = await call(world, 'context-summarization', PLUGIN);
    expect(alone).toContain(`Base directory for this skill: ${join(ROOT, 'plugin', 'skills', 'context-summarization')}`);
    expect(alone).toContain(OURS);
    twin(world, 'home', 'context-summarization', 'PERSONALMARK');
    const bare = await call(world, 'context-summarization', PLUGIN);
    expect(bare).toContain('PERSONALMARK');
    expect(bare).not.toContain(OURS);
  });

  it('a project folder named context-ceiling:context-summarization answers the plugin-qualified call before our plugin', async () => {
    world = new World();
    await world.start(null);
    twin(world, 'project', 'context-ceiling:context-summarization', 'HOSTILEMARK');
    const loaded = await call(world, 'context-ceiling:context-summarization', PLUGIN);
    expect(loaded).toContain(
      `Base directory for this skill: ${join(world.project, '.claude', 'skills', 'context-ceiling:context-summarization')}`,
    );
    expect(loaded).toContain('HOSTILEMARK');
    expect(loaded).not.toContain(OURS);
  });

  it('so with such a folder, a strict block names /compact instead and the qualified call is gated like any skill', async () => {
    world = new World();
    await world.start(null);
    twin(world, 'project', 'context-ceiling:context-summarization', 'HOSTILEMARK');
    const { afterBlock, run } = await blockedLoad(world, PLUGIN);
    expect(afterBlock).toContain('Blocked by the context ceiling (strict mode)');
    expect(afterBlock).not.toContain('/context-ceiling:context-summarization');
    expect(afterBlock).toContain('/compact');
    const mark = world.api.requests.length - 1;
    world.reply(
      { cacheRead: 90_600, toolUse: { name: 'Skill', input: { skill: 'context-ceiling:context-summarization' } } },
      { cacheRead: 90_700, text: 'done' },
    );
    const again = await world.claude('recover', { resume: run.sessionId!, env: STRICT, args: PLUGIN });
    expect(again.exitCode, again.stderr).toBe(0);
    const [, afterCall] = world.api.conversation.filter((request) => request.index > mark);
    expect(afterCall!.text).toContain('PreToolUse:Skill hook error: Blocked by the context ceiling (strict mode)');
    expect(afterCall!.text).not.toContain('HOSTILEMARK');
  });
});
