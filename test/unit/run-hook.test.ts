/** runHookEvent's catch-all: an unexpected error fails open and shows only where debugging is on. */
import { describe, expect, it } from 'vitest';
import type { HookHost } from '../../src/runtime/host.js';
import { runHookEvent } from '../../src/runtime/run.js';
import { silent } from '../../src/runtime/hook-io.js';
import { parsePolicyText } from '../../src/io/policy-parse.js';
import { parseYamlText } from '../../src/io/yaml-parse.js';

function run(debug: string | undefined): { outcome: unknown; stderr: string[] } {
  const stderr: string[] = [];
  const host: HookHost = {
    env: debug === undefined ? {} : { DEV_TEAM_CONTEXT_DEBUG: debug },
    cwd: '/nonexistent',
    home: '/nonexistent',
    writeStderr: (text) => stderr.push(text),
    parsePolicy: parsePolicyText,
    parseYaml: parseYamlText,
    now: () => new Date(0),
  };
  const outcome = runHookEvent(
    'pre-tool-use',
    () => () => {
      throw new Error('boom');
    },
    host,
    () => '{}',
  );
  return { outcome, stderr };
}

describe('runHookEvent on an unexpected error', () => {
  it.each([
    ['unset', undefined, []],
    ['off', 'off', []],
    ['0', '0', []],
    ['a value the policy ignores', 'yes', []],
    ['1', '1', ['context-ceiling debug: unexpected boom\n', 'context-ceiling debug: verdict pre-tool-use: failed-open unexpected-error\n']],
    [
      'on',
      'on',
      ['context-ceiling debug: unexpected boom\n', 'context-ceiling debug: verdict pre-tool-use: failed-open unexpected-error\n'],
    ],
  ])('DEV_TEAM_CONTEXT_DEBUG %s: exit 0, silent stdout; stderr %j', (_name, debug, expected) => {
    const { outcome, stderr } = run(debug);
    expect(outcome).toEqual(silent('failed-open unexpected-error'));
    expect(stderr).toEqual(expected);
  });
});
