/**
 * The way out in an attended (interactive) session, under tmux: a load over
 * the ceiling warns, the model runs the recovery skill the warning names, its
 * save step reports the checkpoint and tells the model to ask for /compact;
 * the person's /compact then brings the compaction alert.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CLAUDE_BIN, World } from './world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

it('attended: the warning → the skill it names → the skill asks for /compact → /compact brings the compaction alert', async () => {
  world = new World();
  world.skill('deep-dive');
  await world.start(['--statusline']);
  // Interactive mode against the fake API needs onboarding marked done and the project trusted (CLAUDE-CODE-FACTS.md).
  writeFileSync(join(world.home, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true, customApiKeyResponses: { approved: ['sk-ant-e2e-test'.slice(-20)], rejected: [] }, projects: { [world.project]: { hasTrustDialogAccepted: true } } }));
  world.reply(
    { cacheRead: 450_000, text: 'ready' },
    { cacheRead: 450_500, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
    { cacheRead: 451_000, toolUse: { name: 'Skill', input: { skill: 'context-summarization' } } },
    { cacheRead: 451_500, text: 'Please run /compact now.' },
    { cacheRead: 3_000, text: 'back' },
  );
  const tmux = `cc-e2e-skill-${process.pid}`;
  const env = { HOME: world.home, TMPDIR: world.tmp, ANTHROPIC_BASE_URL: world.apiUrl, ANTHROPIC_API_KEY: 'sk-ant-e2e-test', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', PATH: process.env.PATH ?? '', DEV_TEAM_CONTEXT_WINDOW: '1000000' };
  const pane = () => execFileSync('tmux', ['capture-pane', '-p', '-t', tmux]).toString();
  const waitFor = async (what: () => boolean, label: string) => {
    for (let i = 0; i < 160; i++) {
      if (what()) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`never: ${label}\n${pane()}`);
  };
  const type = (text: string) => {
    execFileSync('tmux', ['send-keys', '-t', tmux, '-l', text]);
    execFileSync('tmux', ['send-keys', '-t', tmux, 'Enter']);
  };
  execFileSync('tmux', ['new-session', '-d', '-s', tmux, '-x', '160', '-y', '40', '-c', world.project, 'env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), CLAUDE_BIN, '--allowedTools', 'Skill']);
  try {
    await waitFor(() => /no turn yet/.test(pane()), 'the prompt is ready');
    type('get ready');
    await waitFor(() => /ready/.test(pane()) && world!.api.conversation.length >= 1 && /ctx 45%/.test(pane()), 'the first turn');
    type('use the deep-dive skill');
    await waitFor(() => world!.api.conversation.some((r) => r.text.includes('Back under the context ceiling')), 'the warning, then the skill it names, reach the model');
    const warned = world.api.conversation.find((r) => r.text.includes('You are running the deep-dive skill'))!;
    expect(warned.text).toContain(
      'PreToolUse:Skill hook additional context: Context ceiling warning: context is at 45% (450,505 of 1,000,000 tokens; window: env), over the 40% ceiling. ' +
        'The Skill "deep-dive" call proceeds, but load no further agents or skills until you have brought context back under the ceiling: run the /context-summarization skill.',
    );
    const withSkill = world.api.conversation.find((r) => r.text.includes('Back under the context ceiling'))!;
    expect(withSkill.text).toMatch(/context-ceiling: checkpoint cx-001 saved at context fill 45% \(451,005 of 1,000,000 tokens, window: env\)/);
    expect(withSkill.text).toContain('This session is attended: ask the person to run /compact now');
    await waitFor(() => /Please run \/compact now/.test(pane()), 'the model asks for /compact');
    type('/compact');
    await waitFor(() => world!.api.requests.some((r) => r.isSummary), 'the compaction');
    type('go on');
    await waitFor(() => world!.api.conversation.some((r) => r.text.includes('<compaction-alert>')), 'the compaction alert');
  } finally {
    execFileSync('tmux', ['kill-session', '-t', tmux]);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // let the killed client finish writing before the world is removed
  }
}, 90_000);
