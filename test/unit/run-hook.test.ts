/**
 * runHookEvent's catch-all: an unexpected error fails open, says so in one stderr line and keeps a "last
 * error" record (issue 19: failure is observable); the details show where debugging is on.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookHost } from '../../src/runtime/host.js';
import { runHookEvent } from '../../src/runtime/run.js';
import { silent } from '../../src/runtime/hook-io.js';
import { parsePolicyText } from '../../src/io/policy-parse.js';
import { parseYamlText } from '../../src/io/yaml-parse.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cc-run-hook-'));
  mkdirSync(join(home, '.local', 'state'), { recursive: true }); // parents are made only inside the real home
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const FAILED =
  'context-ceiling: the pre-tool-use hook failed and let everything through: boom (context-ceiling doctor shows the last error)\n';

function run(debug: string | undefined): { outcome: unknown; stderr: string[] } {
  const stderr: string[] = [];
  const host: HookHost = {
    env: debug === undefined ? {} : { DEV_TEAM_CONTEXT_DEBUG: debug },
    cwd: home,
    home,
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
  ])('DEV_TEAM_CONTEXT_DEBUG %s: exit 0, silent stdout, one stderr line; debug lines %j', (_name, debug, expected) => {
    const { outcome, stderr } = run(debug);
    expect(outcome).toEqual({ ...silent('failed-open unexpected-error'), stderr: FAILED });
    expect(stderr).toEqual(expected);
    const record = JSON.parse(readFileSync(join(home, '.local', 'state', 'context-ceiling', 'last-error.json'), 'utf8'));
    expect(record).toEqual({ at: '1970-01-01T00:00:00.000Z', event: 'pre-tool-use', error: 'boom', version: 'dev' });
  });
});
