// @module-tag hook
/**
 * Human output of `checkpoints list` and replay's table, byte for byte (explicit env, NO_COLOR=1,
 * COLUMNS=80). status, config show and doctor have theirs in cli-settings.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { recordAsOurs } from '../helpers/own-checkpoints.js';
import { makeSandbox, runCli, runHook, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const ENV = { COLUMNS: '80' };
const normalise = (text: string) => text.split(sandbox.root).join('<root>');

describe('human output, byte for byte', () => {
  it('checkpoints list: every column, an acknowledged one, an unmeasured one, a corrupt file', async () => {
    const project = { CLAUDE_PROJECT_DIR: sandbox.project };
    const transcript = sandbox.write(
      't.jsonl',
      aTranscript('sess-a')
        .modelAttachment('claude-haiku-4-5')
        .assistant({ cacheRead: 150_000 - 5, model: 'claude-haiku-4-5' })
        .toString(),
    );
    const unmeasured = sandbox.write('u.jsonl', aTranscript('sess-b').user('hi').toString());
    await runHook(
      sandbox,
      { session_id: 'sess-a', transcript_path: transcript, cwd: sandbox.project, trigger: 'auto' },
      project,
      'hook',
      'pre-compact',
    );
    await runHook(
      sandbox,
      { session_id: 'sess-a', transcript_path: transcript, cwd: sandbox.project, trigger: 'manual' },
      project,
      'hook',
      'pre-compact',
    );
    await runHook(
      sandbox,
      { session_id: 'sess-b', transcript_path: unmeasured, cwd: sandbox.project, trigger: 'auto' },
      project,
      'hook',
      'pre-compact',
    );
    const dir = (session: string) => join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints', session);
    // The hook stamps its own clock; fixed times keep the bytes stable.
    for (const [session, id, time] of [
      ['sess-a', 'cx-001', '2026-11-22T03:00:00.000Z'],
      ['sess-a', 'cx-002', '2026-11-22T04:30:00.000Z'],
      ['sess-b', 'cx-001', '2026-11-22T05:00:00.000Z'],
    ] as const) {
      const file = join(dir(session), `${id}-checkpoint.json`);
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), timestamp: time }, null, 2));
      // Rewritten, a checkpoint is no longer the one we recorded: sess-a's are recorded again, sess-b's stays found.
      if (session === 'sess-a')
        recordAsOurs(join(sandbox.root, 'home', '.local', 'state', 'context-ceiling'), sandbox.project, file, session);
    }
    writeFileSync(join(dir('sess-b'), 'cx-002-checkpoint.json'), '{"broken');
    expect((await runCli(sandbox, ['checkpoints', 'ack', 'sess-a/cx-001'], project)).exitCode).toBe(0);
    const run = await runCli(sandbox, ['checkpoints', 'list'], { ...project, ...ENV });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    await expect(normalise(run.stdout)).toMatchFileSnapshot('../golden/cli-checkpoints-list.txt');
  });

  it("replay's table over a small corpus: gated calls, a compaction, a subagent set aside", async () => {
    const project = 'home/.claude/projects/-home-dev-app';
    sandbox.write(
      `${project}/s1.jsonl`,
      aTranscript('s1')
        .modelAttachment('claude-haiku-4-5')
        .assistant({ cacheRead: 50_000 - 5, model: 'claude-haiku-4-5', toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } })
        .assistant({ cacheRead: 90_000 - 5, model: 'claude-haiku-4-5', toolUse: { name: 'Agent', input: { subagent_type: 'Explore' } } })
        .assistant({ cacheRead: 120_000 - 5, model: 'claude-haiku-4-5' })
        .toString(),
    );
    sandbox.write(
      `${project}/s2.jsonl`,
      aTranscript('s2')
        .assistant({ cacheRead: 150_000 - 5, model: 'claude-sonnet-4-5-20250929' })
        .compactBoundary({ postTokens: 3_000 })
        .assistant({
          cacheRead: 110_000 - 5,
          model: 'claude-sonnet-4-5-20250929',
          toolUse: { name: 'Task', input: { subagent_type: 'general' } },
        })
        .toString(),
    );
    sandbox.write(`${project}/s1/subagents/agent-a1.jsonl`, aTranscript('s1').assistant({ agentId: 'a1', cacheRead: 190_000 }).toString());
    const run = await runCli(sandbox, ['replay', '--ceilings', '30,40,50'], ENV);
    expect(run.exitCode, run.stderr).toBe(0);
    // Not a terminal: progress is plain lines on stderr, and nothing else is there.
    expect(run.stderr.replace(/^replay: \d+% \(.*\)\n/gm, '')).toBe('');
    // Throughput is the one line that depends on the machine.
    await expect(
      normalise(run.stdout).replace(/ in \d+\.\d s \([\d.]+ [KMG]?i?B\/s\)/, ' in <seconds> (<throughput>)'),
    ).toMatchFileSnapshot('../golden/cli-replay.txt');
  });
});
