/** io/policy-cache.ts: a kept validation answers only the text, the path and the validator it was made for. */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReadPolicy } from '../../src/io/config.js';
import { keptValidation, MAX_KEPT_FILES } from '../../src/io/policy-cache.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function setUp() {
  root = mkdtempSync(join(tmpdir(), 'cc-policy-cache-'));
  const validator = join(root, 'policy-parse.cjs');
  writeFileSync(validator, '// v1');
  let calls = 0;
  const answer = (text: string): ReadPolicy => {
    calls++;
    return { kind: 'ok', file: JSON.parse(text) };
  };
  const path = '/home/me/.claude/context-ceiling.json';
  const ask = (text: string, at = path) => keptValidation(join(root, 'code-cache'), validator, text, at, () => answer(text));
  const askWithoutCache = (text: string) => keptValidation(undefined, validator, text, path, () => answer(text));
  return { validator, ask, askWithoutCache, calls: () => calls };
}

describe('keptValidation', () => {
  it('validates a text once, then answers from what it kept', () => {
    const { ask, calls } = setUp();
    expect(ask('{"ceilingPct":25}')).toEqual({ kind: 'ok', file: { ceilingPct: 25 } });
    expect(ask('{"ceilingPct":25}')).toEqual({ kind: 'ok', file: { ceilingPct: 25 } });
    expect(calls()).toBe(1);
  });

  it('validates again for another text, another path, or a rebuilt validator', () => {
    const { validator, ask, calls } = setUp();
    ask('{"ceilingPct":25}');
    expect(ask('{"ceilingPct":35}')).toEqual({ kind: 'ok', file: { ceilingPct: 35 } });
    expect(calls()).toBe(2);
    ask('{"ceilingPct":35}', '/work/project/.claude/context-ceiling.json');
    expect(calls()).toBe(3);
    writeFileSync(validator, '// v2, another size');
    ask('{"ceilingPct":35}');
    expect(calls()).toBe(4);
    ask('{"ceilingPct":35}');
    expect(calls()).toBe(4);
  });

  it('keeps nothing without a cache folder, or when the validator cannot be found', () => {
    const { validator, ask, askWithoutCache, calls } = setUp();
    askWithoutCache('{}');
    askWithoutCache('{}');
    expect(calls()).toBe(2);
    rmSync(validator);
    ask('{}');
    ask('{}');
    expect(calls()).toBe(4);
  });
});

describe('what keptValidation keeps on disk', () => {
  const keptIn = (dir: string) =>
    readdirSync(dir)
      .filter((name) => /^policy\.[0-9a-f]{8}\.json$/.test(name))
      .sort();

  it('two validators (a plugin and a project install) keep one file each for a path, so neither validates again', () => {
    const { ask, calls } = setUp();
    let otherCalls = 0;
    const other = join(root, 'other-install', 'policy-parse.cjs');
    mkdirSync(dirname(other));
    writeFileSync(other, '// the other install');
    const askOther = (text: string) =>
      keptValidation(join(root, 'code-cache'), other, text, '/home/me/.claude/context-ceiling.json', () => {
        otherCalls++;
        return { kind: 'ok', file: JSON.parse(text) };
      });
    for (let turn = 0; turn < 3; turn++) {
      ask('{"ceilingPct":25}');
      askOther('{"ceilingPct":25}');
    }
    expect([calls(), otherCalls]).toEqual([1, 1]);
    expect(keptIn(join(root, 'code-cache'))).toHaveLength(2);
  });

  it('keeps at most 32: a new one replaces the one kept longest ago, and leaves what is not ours', () => {
    expect(MAX_KEPT_FILES).toBe(32);
    const { ask, calls } = setUp();
    const dir = join(root, 'code-cache');
    const paths = Array.from({ length: MAX_KEPT_FILES + 3 }, (_, i) => `/work/p${i}/.claude/context-ceiling.json`);
    const kept: string[] = [];
    for (const [i, path] of paths.entries()) {
      ask('{}', path);
      const [added] = keptIn(dir).filter((name) => !kept.includes(name));
      kept.push(added!);
      // Kept in turn, a second apart as far as the file system tells.
      utimesSync(join(dir, added!), 1_700_000_000 + i, 1_700_000_000 + i);
    }
    writeFileSync(join(dir, 'hook-pre-tool-use.cjs.1.2.3.v8k'), 'a code cache');
    writeFileSync(join(dir, 'policy.notours.json'), '{}');
    expect(keptIn(dir)).toEqual(kept.slice(3).sort());
    expect(calls()).toBe(paths.length);
    // The newest are answered from what was kept; the first path's was let go, so it is validated again.
    ask('{}', paths.at(-1));
    expect(calls()).toBe(paths.length);
    ask('{}', paths[0]);
    expect(calls()).toBe(paths.length + 1);
    expect(readdirSync(dir)).toEqual(expect.arrayContaining(['hook-pre-tool-use.cjs.1.2.3.v8k', 'policy.notours.json']));
  });
});
