/**
 * The way out in an attended (interactive) session, under tmux: a load over
 * the ceiling warns, the model runs the recovery skill the warning names, its
 * save step reports the checkpoint and tells the model to ask for /compact;
 * the person's /compact then brings the compaction alert.
 */
import { expect, it } from 'vitest';
import { Terminal } from './terminal.js';
import { World, stopWorldsAfterEach } from './world.js';

let world: World | undefined;
stopWorldsAfterEach();

it('attended: the warning → the skill it names → the skill asks for /compact → /compact brings the compaction alert', async () => {
  world = new World();
  world.skill('deep-dive');
  await world.start(['--statusline']);
  world.reply(
    { cacheRead: 450_000, text: 'ready' },
    { cacheRead: 450_500, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
    { cacheRead: 451_000, toolUse: { name: 'Skill', input: { skill: 'context-summarization' } } },
    { cacheRead: 451_500, text: 'Please run /compact now.' },
    { cacheRead: 3_000, text: 'back' },
  );
  const terminal = Terminal.open(world, ['--allowedTools', 'Skill'], { DEV_TEAM_CONTEXT_WINDOW: '1000000' });
  try {
    await terminal.waitFor(/no turn yet/, 'the prompt is ready');
    terminal.type('get ready');
    await terminal.waitFor(
      () => /ready/.test(terminal.pane()) && world!.api.conversation.length >= 1 && /ctx 45%/.test(terminal.pane()),
      'the first turn',
    );
    terminal.type('use the deep-dive skill');
    await terminal.waitFor(
      () => world!.api.conversation.some((r) => r.text.includes('Back under the context ceiling')),
      'the warning, then the skill it names, reach the model',
    );
    const warned = world.api.conversation.find((r) => r.text.includes('You are running the deep-dive skill'))!;
    expect(warned.text).toContain(
      'PreToolUse:Skill hook additional context: Context ceiling warning: context is at 45% (450,505 of 1,000,000 tokens; window: env), over the 40% ceiling. ' +
        'The Skill "deep-dive" call proceeds, but load no further agents, skills or workflows until you have brought context back under the ceiling: run the /context-summarization skill.',
    );
    const withSkill = world.api.conversation.find((r) => r.text.includes('Back under the context ceiling'))!;
    expect(withSkill.text).toMatch(
      /context-ceiling: checkpoint cx-001 saved at context fill 45% \(451,005 of 1,000,000 tokens, window: env\)/,
    );
    expect(withSkill.text).toContain('This session is attended: ask the person to run /compact now');
    await terminal.waitFor(/Please run \/compact now/, 'the model asks for /compact');
    terminal.type('/compact');
    await terminal.waitFor(() => world!.api.requests.some((r) => r.isSummary), 'the compaction');
    terminal.type('go on');
    await terminal.waitFor(() => world!.api.conversation.some((r) => r.text.includes('<compaction-alert>')), 'the compaction alert');
  } finally {
    await terminal.close();
  }
}, 90_000);
