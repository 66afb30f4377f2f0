/** io/policy-cache.ts: a kept validation answers only the text, the path and the validator it was made for. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReadPolicy } from '../../src/io/config.js';
import { keptValidation } from '../../src/io/policy-cache.js';

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
