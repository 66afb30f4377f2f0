/** CLI faults a new user ran into (issue 12), each pinned to the exact message; successful runs keep stderr empty. */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { makeSandbox, runCli, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const cli = (args: string[], env: Record<string, string> = {}) => runCli(sandbox, args, { CLAUDE_PROJECT_DIR: sandbox.project, ...env });
const REPLAY_USAGE =
  'Usage: context-ceiling replay [DIR...] [--ceilings 20,30,40,50,60] [--window N] [--jobs N] [--runtime auto|node] [--html FILE] [--json]\n';
/** One session with one Skill call at `tokens` (on the main thread). */
const session = (name: string, tokens: number, skill = 'deep-dive') =>
  sandbox.write(
    `sessions/${name}.jsonl`,
    aTranscript(name)
      .assistant({ cacheRead: tokens - 5 })
      .assistant({ cacheRead: tokens - 5, toolUse: { name: 'Skill', input: { skill } } })
      .toString(),
  );

describe('report', () => {
  it('--html DIRECTORY: one clear error before any output, exit 1', async () => {
    const run = await cli(['report', session('s', 50_000), '--html', sandbox.tmp]);
    expect(run).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `context-ceiling: --html ${sandbox.tmp} is a directory; give a file name, e.g. ${join(sandbox.tmp, 'report.html')}\n`,
    });
  });

  it('--html under a missing directory: a clear error, exit 1', async () => {
    const target = join(sandbox.root, 'nope', 'r.html');
    const run = await cli(['report', session('s', 50_000), '--html', target]);
    expect(run).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `context-ceiling: --html ${target}: no such directory ${join(sandbox.root, 'nope')}\n`,
    });
  });

  it('"1 gated call", "1 compaction"; --json gives the data with the guard’s verdict per call', async () => {
    const run = await cli(['report', session('s', 100_000), '--window', '200000']);
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n')[1]).toBe(
      '2 turns · peak 50% (100,000 tokens, turn 1) · 0 compactions · 1 gated call, 1 over the 40% ceiling · window 200,000 (--window)',
    );
    const json = await cli(['report', session('s', 100_000), '--window', '200000', '--json'], { DEV_TEAM_CONTEXT_STRICT: 'on' });
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({
      window: 200_000,
      windowSource: '--window',
      ceilingPct: 40,
      compactions: [],
      calls: [{ turn: 2, tool: 'Skill', percent: 50, over: true, verdict: 'block' }],
      html: null,
    });
  });

  it('with {"tools":{"Skill":"off"}} a Skill load is not a gated call', async () => {
    sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ tools: { Skill: 'off' } }));
    const run = await cli(['report', session('s', 100_000), '--window', '200000']);
    expect(run.stdout.split('\n')[1]).toBe(
      '2 turns · peak 50% (100,000 tokens, turn 1) · 0 compactions · 0 gated calls, 0 over the 40% ceiling · window 200,000 (--window)',
    );
  });
});

describe('status', () => {
  it('--transcript of a missing file: the reason once, exit 1', async () => {
    const missing = join(sandbox.root, 'nonexistent.jsonl');
    expect(await cli(['status', '--transcript', missing])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `context-ceiling: cannot read ${missing}: no such file or directory (ENOENT)\n`,
    });
  });
});

describe('replay', () => {
  it('--window -5 is a bad window, not an unknown option', async () => {
    expect(await cli(['replay', '--window', '-5'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `context-ceiling: --window takes a whole number of tokens, at least 1000 (got "-5")\n${REPLAY_USAGE}`,
    });
  });

  it("each session is judged against its model's window, and never above 100 %: a --window it outgrew gives way", async () => {
    session('big', 952_000);
    const run = await cli(['replay', join(sandbox.root, 'sessions')]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toMatch(/^replay: 100% \(.*\)\n$/); // the progress line, nothing else
    expect(run.stdout).toContain('Peak occupancy per session: p50 95%  p90 95%  p99 95%  max 95%\n');
    expect(run.stdout).toContain('Windows: 1 session at 1,000,000 tokens (model claude-opus-5-5).');
    const stated = await cli(['replay', join(sandbox.root, 'sessions'), '--window', '200000']);
    expect(stated.stdout).toContain('Peak occupancy per session: p50 95%  p90 95%  p99 95%  max 95%\n');
  });

  it('singular counts read as such', async () => {
    session('one', 50_000);
    const run = await cli(['replay', join(sandbox.root, 'sessions'), '--window', '1000000', '--json']);
    expect(run.stderr).toMatch(/^replay: 100% \(.*\)\n$/);
    expect(JSON.parse(run.stdout)).toMatchObject({ sessions: 1, sessionsWithCalls: 1 });
    const human = await cli(['replay', join(sandbox.root, 'sessions'), '--window', '1000000']);
    expect(human.stdout).toMatch(/^Replayed 1 session, .*; 0 subagent files and 0 summariser files not counted as sessions\.$/m);
    expect(human.stdout).toContain('Windows: 1 session at 1,000,000 tokens (env --window). 1 session made calls the guard judges.\n');
    expect(human.stdout).toContain('Compactions: 0 in 0 sessions.\n');
    expect(human.stdout).toContain('Corrupt: 0 unreadable files, 0 lines that did not parse, 0 lines over 64 MiB skipped.\n');
  });

  it('with {"tools":{"Skill":"off"}} no gated Skill load is counted', async () => {
    sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ tools: { Skill: 'off' } }));
    session('s', 100_000);
    const json = JSON.parse(
      (await cli(['replay', join(sandbox.root, 'sessions'), '--window', '200000', '--ceilings', '40', '--json'])).stdout,
    );
    expect(json.sessionsWithCalls).toBe(0);
    expect(json.ceilings[0]).toMatchObject({ ceiling: 40, sessionsGated: 0, gatedLoads: 0, gatedByTool: {}, blockedLoads: 0 });
  });
});

describe('config', () => {
  it('show: a value longer than its column never runs into the source', async () => {
    const run = await cli(['config', 'show']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(
      'recoverySkills          ["context-summarization","context-loading-protocol","continue","review-summary","session-review"]  default\n',
    );
  });

  it('get: a malformed environment value is named on stderr, as show does', async () => {
    const run = await cli(['config', 'get', 'ceilingPct'], { DEV_TEAM_CONTEXT_CEILING_PCT: '40%' });
    expect(run).toMatchObject({
      exitCode: 0,
      stdout: 'ceilingPct = 40  (default)\n',
      stderr: 'context-ceiling: warning: DEV_TEAM_CONTEXT_CEILING_PCT="40%" ignored: expected a whole number from 1 to 100\n',
    });
  });

  it('show and get, human or --json, name the same malformed values the same way', async () => {
    const env = { DEV_TEAM_CONTEXT_CEILING_PCT: '0x20', DEV_TEAM_CONTEXT_MONITOR: 'false' };
    const expected =
      'context-ceiling: warning: DEV_TEAM_CONTEXT_CEILING_PCT="0x20" ignored: expected a whole number from 1 to 100\n' +
      'context-ceiling: warning: DEV_TEAM_CONTEXT_MONITOR="false" ignored: only "on" or "off" is recognised\n';
    for (const args of [['show'], ['show', '--json'], ['get', 'ceilingPct'], ['get', 'ceilingPct', '--json']]) {
      const run = await cli(['config', ...args], env);
      expect({ args, exitCode: run.exitCode, stderr: run.stderr }).toEqual({ args, exitCode: 0, stderr: expected });
    }
    const shown = JSON.parse((await cli(['config', 'show', '--json'], env)).stdout);
    expect(shown.settings.find((row: { key: string }) => row.key === 'ceilingPct')).toEqual({
      key: 'ceilingPct',
      value: 40,
      source: 'default',
      detail: null,
    });
    expect(shown.warnings).toEqual(
      expected
        .trimEnd()
        .split('\n')
        .map((line) => line.replace('context-ceiling: warning: ', '')),
    );
    expect(JSON.parse((await cli(['config', 'get', 'ceilingPct', '--json'], env)).stdout)).toEqual({
      key: 'ceilingPct',
      value: 40,
      source: 'default',
      detail: null,
    });
  });
});
