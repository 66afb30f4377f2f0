/** replay over a corpus laid out like ~/.claude/projects. */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { makeSandbox, runCli, type Sandbox } from '../helpers/sandbox.js';

const HAIKU = 'claude-haiku-4-5';
let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
  const project = 'home/.claude/projects/-home-dev-app';
  // Every session on claude-haiku-4-5, one 200,000-token window.
  // s1: a Skill call at 25 %, an Agent call at 45 %, three more turns
  sandbox.write(
    `${project}/s1.jsonl`,
    aTranscript('s1')
      .modelAttachment(HAIKU)
      .assistant({ model: HAIKU, cacheRead: 50_000 - 5, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } })
      .toolResult(5_000)
      .assistant({ model: HAIKU, cacheRead: 90_000 - 5, toolUse: { name: 'Agent', input: { subagent_type: 'Explore' } } })
      .assistant({ model: HAIKU, cacheRead: 100_000 - 5 })
      .assistant({ model: HAIKU, cacheRead: 110_000 - 5 })
      .assistant({ model: HAIKU, cacheRead: 120_000 - 5 })
      .toString(),
  );
  // s2: compacted, then a recovery skill at 60 % (never gated), then a Task call at 55 %
  sandbox.write(
    `${project}/s2.jsonl`,
    aTranscript('s2')
      .modelAttachment(HAIKU)
      .assistant({ model: HAIKU, cacheRead: 150_000 - 5 })
      .compactBoundary({ postTokens: 3_000 })
      .assistant({ model: HAIKU, cacheRead: 120_000 - 5, toolUse: { name: 'Skill', input: { skill: 'any:context-summarization' } } })
      .assistant({ model: HAIKU, cacheRead: 110_000 - 5, toolUse: { name: 'Task', input: { subagent_type: 'general' } } })
      .raw('{"type":"assistant","message": {broken')
      .toString(),
  );
  // a subagent of s1 and the compaction summariser: never sessions, whatever their usage
  sandbox.write(
    `${project}/s1/subagents/agent-a1.jsonl`,
    aTranscript('s1')
      .assistant({ agentId: 'a1', cacheRead: 190_000, toolUse: { name: 'Skill', input: { skill: 'x' } } })
      .toString(),
  );
  sandbox.write(`${project}/agent-acompact-9.jsonl`, aTranscript('s2').assistant({ cacheRead: 173_514 }).toString());
  // a Workflow run's journal inside a session's folder (2.1.331): the session's own file, never a session
  sandbox.write(`${project}/s1/subagents/workflows/run-1/journal.jsonl`, aTranscript('s1').assistant({ cacheRead: 180_000 }).toString());
  symlinkSync(join(sandbox.root, 'nowhere.jsonl'), join(sandbox.root, project, 'dangling.jsonl'));
});
afterEach(() => sandbox.cleanup());

describe('replay', () => {
  it('--json: sessions, gated calls per ceiling, compactions, peaks; subagents and summariser set aside; bad input counted', async () => {
    const run = await runCli(sandbox, ['replay', '--ceilings', '20,40,50', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      windows: [{ tokens: 200_000, source: 'model', detail: HAIKU, verified: true, sessions: 2 }],
      files: { sessions: 3, subagents: 2, summarisers: 1 },
      corrupt: { unreadableFiles: 1, lines: 1, oversizedLines: 0 },
      sessions: 2,
      sessionsWithCalls: 2,
      compactions: 1,
      sessionsCompacted: 1,
      peak: { max: 75 },
    });
    const byCeiling = Object.fromEntries(report.ceilings.map((c: { ceiling: number }) => [c.ceiling, c]));
    expect(byCeiling[20]).toMatchObject({
      sessionsGated: 2,
      gatedLoads: 3,
      gatedByTool: { Skill: 1, Agent: 1, Task: 1 },
      medianFirstCall: 1,
    });
    expect(byCeiling[40]).toMatchObject({ sessionsGated: 2, gatedLoads: 2, gatedByTool: { Agent: 1, Task: 1 } });
    expect(byCeiling[50]).toMatchObject({
      sessionsGated: 1,
      gatedLoads: 1,
      gatedByTool: { Task: 1 },
      nearDone: 1,
      medianTurnsAfterFirst: 0,
    });
  });

  it('--jobs 2 reads the files in two worker threads and answers exactly as one thread does', async () => {
    const one = await runCli(sandbox, ['replay', '--ceilings', '20,40,50', '--json', '--jobs', '1']);
    const two = await runCli(sandbox, ['replay', '--ceilings', '20,40,50', '--json', '--jobs', '2']);
    expect(two.exitCode, two.stderr).toBe(0);
    const { seconds: _1, threads: threadsOne, ...answerOne } = JSON.parse(one.stdout);
    const { seconds: _2, threads: threadsTwo, ...answerTwo } = JSON.parse(two.stdout);
    expect([threadsOne, threadsTwo]).toEqual([1, 2]);
    expect(answerTwo).toEqual(answerOne);
    expect(answerTwo).toMatchObject({ sessions: 2, corrupt: { unreadableFiles: 1, lines: 1 }, compactions: 1 });
    expect(two.stderr).toMatch(/^replay: 100% \(.*, 3 of 3 files\)$/m);
  });

  it('worker threads (replay-worker.cjs) answer exactly as one thread on a corpus of many files of every shape', async () => {
    // 14 sessions over 3 projects, more files than threads: each thread reads several, largest first.
    const MODELS = [HAIKU, 'claude-sonnet-4-5', 'claude-sonnet-4-5[1m]', 'claude-opus-5-5', 'some-unknown-model'];
    for (let s = 0; s < 14; s++) {
      const model = MODELS[s % MODELS.length]!;
      const t = aTranscript(`m${s}`).modelAttachment(model);
      let fill = 10_000 + s * 3_000;
      for (let turn = 0; turn < 30 + s * 7; turn++) {
        fill += 1_500 + ((s * 31 + turn * 17) % 4_000);
        if (fill > 170_000 && s % 3 !== 0) {
          t.compactBoundary({ trigger: 'auto', preTokens: fill, postTokens: s % 2 ? 4_000 : undefined });
          fill = 8_000;
        }
        const tool =
          turn % 5 === 2
            ? { name: 'Skill', input: { skill: turn % 10 === 2 ? 'deep-dive' : 'x:context-summarization' } }
            : turn % 7 === 3
              ? { name: 'Agent', input: { subagent_type: 'Explore' } }
              : { name: 'Read', input: { file_path: `f${turn}` } };
        t.user(`step ${turn}`).assistant({ model: model.replace('[1m]', ''), cacheRead: fill, output: 40 + turn, toolUse: tool });
        if (tool.name === 'Agent') t.progress({ cacheRead: 190_000 });
        // Some results larger than a read (1 MiB), so a line spans reads in every thread.
        t.toolResult(turn % 40 === 39 ? 1_100_000 : 2_000 + ((turn * 7919) % 9_000)).noise();
        if (turn % 11 === 5) t.sidechain({ cacheRead: 185_000 });
        if (turn % 13 === 8) t.apiError();
      }
      if (s % 4 === 1) t.raw('{"type":"assistant","message": {broken');
      sandbox.write(`home/.claude/projects/-home-dev-p${s % 3}/m${s}.jsonl`, t.toString());
    }
    const answers = [];
    for (const jobs of ['1', '2', '4']) {
      const run = await runCli(sandbox, ['replay', '--ceilings', '20,30,40,50,60,80', '--json', '--jobs', jobs]);
      expect(run.exitCode, run.stderr).toBe(0);
      const { seconds: _, threads, ...answer } = JSON.parse(run.stdout);
      expect(threads).toBe(Number(jobs));
      answers.push(answer);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ sessions: 16, files: { sessions: 17 }, corrupt: { unreadableFiles: 1, lines: 5 } });
    expect(answers[0].compactions).toBeGreaterThan(5);
    expect(answers[0].ceilings.find((c: { ceiling: number }) => c.ceiling === 40).gatedLoads).toBeGreaterThan(20);
  });

  it('the table, and plain progress lines on stderr when not a terminal', async () => {
    const run = await runCli(sandbox, ['replay', join(sandbox.home, '.claude', 'projects'), '--window', '1000000']);
    expect(run.stdout).toMatch(/^Replayed 2 sessions, .* 2 subagent files and 1 summariser file not counted as sessions\.$/m);
    expect(run.stdout).toContain('Windows: 2 sessions at 1,000,000 tokens (env --window).');
    expect(run.stdout).toMatch(/^ceiling +sessions gated/m);
    expect(run.stdout).toMatch(/^40% +0 \(0%\)/m);
    expect(run.stderr).toMatch(/^replay: 100% \(.* of .*, 3 of 3 files\)$/m);
    expect(run.stderr).not.toContain('\r');
  });

  it('on a terminal, a progress bar redrawn in place', async () => {
    const { execa } = await import('execa');
    const { CLI_BIN } = await import('../helpers/sandbox.js');
    // `script` gives the CLI a real pseudo-terminal, as a user's shell would.
    const run = await execa(
      'script',
      ['-qc', `"${process.execPath}" "${CLI_BIN}" replay "${join(sandbox.home, '.claude', 'projects')}"`, '/dev/null'],
      { env: sandbox.env(), extendEnv: false },
    );
    expect(String(run.stdout)).toMatch(/\rreplay \[#+\] 100% 3\/3 files/);
    expect(String(run.stdout)).toContain('Replayed 2 sessions');
  });

  it.each([
    [['replay', '--ceilings', '40,x'], '--ceilings takes whole percents'],
    [['replay', '--window', 'big'], '--window takes a whole number'],
    [['replay', '--jobs', '0'], '--jobs takes a whole number of threads from 1 to 64 (got "0")'],
    [['replay', '/no/such/dir'], '/no/such/dir: no such file or directory'],
  ])('%j: a clear error, exit 1', async (args, message) => {
    const run = await runCli(sandbox, args);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(message);
  });
});
