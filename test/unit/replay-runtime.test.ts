/** What `replay --runtime` asks for, read by the bin before the CLI loads (cli/replay-runtime.ts). */
import { describe, expect, it } from 'vitest';
import { runtimeAsked, settleReplayRuntime } from '../../src/cli/replay-runtime.js';

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
