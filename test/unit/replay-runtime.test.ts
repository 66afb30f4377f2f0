/** What `replay --runtime` asks for, read by the bin before the CLI loads (cli/replay-runtime.ts). */
import { describe, expect, it } from 'vitest';
import { bunOutreads, runtimeAsked, settleReplayRuntime } from '../../src/cli/replay-runtime.js';

describe('runtimeAsked', () => {
  it.each([
    [[], 'auto'],
    [['--json', 'dir'], 'auto'],
    [['--runtime', 'node'], 'node'],
    [['--runtime=node', '--json'], 'node'],
    [['--runtime', 'auto'], 'auto'],
    [['--runtime', 'node', '--runtime', 'auto'], 'node'], // the first; a repeated flag is replay's usage error
    [['--runtime'], ''], // no value: not auto, so Node runs and replay says what is wrong
    [['--', '--runtime', 'node'], 'auto'], // after `--` it is a directory's name
  ])('%j → %s', (args, expected) => {
    expect(runtimeAsked(args)).toBe(expected);
  });
});

describe('settleReplayRuntime', () => {
  it.each([[['status']], [['replay', '--help']], [['--no-color', 'replay', '-h']], [['replay', '--runtime', 'node']]])(
    '%j: this process runs it (nothing handed over)',
    (argv) => {
      expect(settleReplayRuntime(argv, { PATH: '/nonexistent' })).toBeUndefined();
    },
  );

  it('from source (no cli.cjs to hand over), a replay runs here whatever Bun the PATH holds', () => {
    expect(settleReplayRuntime(['replay', '--json'], { PATH: `${process.cwd()}/node_modules/.bin` })).toBeUndefined();
  });
});

describe('bunOutreads: which Node hands a replay to Bun (bench/HISTORY.md, 2026-11-27)', () => {
  it.each([
    ['20.20.2', true],
    ['21.7.3', true],
    ['22.0.0', false], // level with Bun: a handover would only add a start
    ['24.21.0', false],
    ['26.12.1', false],
    ['', false],
    ['v20', false], // not a version Node reports: Node keeps the run
  ])('Node %j → %s', (version, expected) => {
    expect(bunOutreads(version)).toBe(expected);
  });
});
