/**
 * What every hook run checks or formats, spelt out instead of regular expressions (a pattern's first use compiles it,
 * its second again to machine code): the names that reach a file path (core/hook-input.ts isSafeId,
 * core/entry-bundle.ts isEntryName, io/state.ts sanitizeId), the sanitiser's plain-text test (core/sanitize.ts isPlain)
 * and the token counts the model and the person read (core/guard-text.ts formatTokens). Each must answer exactly what
 * its expression did, whatever the input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEntryName } from '../../src/core/entry-bundle.js';
import { ENTRY_NAMES } from '../../src/core/hook-table.js';
import { formatTokens } from '../../src/core/guard-text.js';
import { isSafeId } from '../../src/core/hook-input.js';
import { isPlain } from '../../src/core/sanitize.js';
import { sanitizeId } from '../../src/io/state.js';

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;
const ENTRY_SHAPE = /^[a-z]+(?:-[a-z]+)*$/;

/** Strings near the edges: the characters each check cares about, any others, and lengths around 128. */
const nearlySafe = fc.oneof(
  fc.string({ maxLength: 140 }),
  fc.string({ unit: fc.constantFrom('a', 'Z', '0', '9', '_', '-', '.', '/', ' ', '\u00e9', '\u0000', '`', '{', '@', '['), maxLength: 140 }),
  fc.integer({ min: 120, max: 136 }).map((n) => 'a'.repeat(n)),
);
const nearlyEntry = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: fc.constantFrom('a', 'z', '-', '`', '{', 'A', '0', '/', '.'), maxLength: 30 }),
);

describe('isSafeId', () => {
  it('is /^[A-Za-z0-9_-]{1,128}$/ for any string', () => {
    fc.assert(
      fc.property(nearlySafe, (id) => isSafeId(id) === SAFE_ID.test(id)),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['a UUID, as Claude Code names sessions', '0f8fad5b-d9cb-469f-a165-70867728950e', true],
    ['128 characters', 'x'.repeat(128), true],
    ['129 characters', 'x'.repeat(129), false],
    ['empty', '', false],
    ['a path', '../etc', false],
    ['a letter outside ASCII', 'caf\u00e9', false],
  ])('%s: %s', (_, id, safe) => {
    expect(isSafeId(id)).toBe(safe);
  });
});

describe('sanitizeId', () => {
  it('is the regular-expression version for any string (safe ids kept as they are)', () => {
    const byExpression = (id: string) => {
      const clean = id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 128);
      return clean.length > 0 ? clean : '_';
    };
    fc.assert(
      fc.property(nearlySafe, (id) => sanitizeId(id) === byExpression(id)),
      { numRuns: 5000 },
    );
  });
});

describe('isEntryName', () => {
  it('is /^[a-z]+(?:-[a-z]+)*$/ for any string', () => {
    fc.assert(
      fc.property(nearlyEntry, (name) => isEntryName(name) === ENTRY_SHAPE.test(name)),
      { numRuns: 5000 },
    );
  });

  it('takes every entry the hook table names, and refuses what could name another file', () => {
    for (const name of ENTRY_NAMES) expect(isEntryName(name), name).toBe(true);
    for (const name of ['', '-', 'pre-', '-pre', 'pre--tool', 'Pre-tool', '../x', 'pre.tool', 'pre_tool'])
      expect(isEntryName(name), name).toBe(false);
  });
});

describe('isPlain', () => {
  const PLAIN = /^[\x20-\x3b\x3d-\x7e]*$/;
  it('is /^[\x20-\x3b\x3d-\x7e]*$/ for any string', () => {
    const texts = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({
        unit: fc.constantFrom('a', ' ', '<', '>', '~', '\u007f', '\u001f', '\n', '\t', '\u00a0', '\u2039', ';', '='),
        maxLength: 40,
      }),
    );
    fc.assert(
      fc.property(texts, (text) => isPlain(text) === PLAIN.test(text)),
      { numRuns: 5000 },
    );
  });
});

describe('formatTokens', () => {
  const byPattern = (tokens: number) => String(Math.round(tokens)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  it('is the lookahead pattern for any number: integers, fractions, negatives, huge, Infinity and NaN', () => {
    const numbers = fc.oneof(
      fc.integer(),
      fc.nat({ max: 10_000_000 }),
      fc.double(),
      fc.constantFrom(0, -0, 1e21, -1e21, 999, 1000, -1000, Number.MAX_SAFE_INTEGER),
    );
    fc.assert(
      fc.property(numbers, (n) => formatTokens(n) === byPattern(n)),
      { numRuns: 5000 },
    );
  });

  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [300_005, '300,005'],
    [1_000_000, '1,000,000'],
    [-1234.6, '-1,235'],
  ])('%d → %s', (tokens, text) => {
    expect(formatTokens(tokens)).toBe(text);
  });
});
