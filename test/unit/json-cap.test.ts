import { describe, expect, it } from 'vitest';
import { capJson, expandedSizeOver } from '../../src/core/json-cap.js';

const limits = { maxString: 10, maxItems: 3, maxDepth: 3, maxTotal: 1_000 };

describe('expandedSizeOver: a parsed tree measured as written out, at a cost bounded by the limit', () => {
  const shared = { text: 'x'.repeat(1_000) };
  it.each([
    ['a small mapping', { a: 'b' }, 100, false],
    ['one shared mapping written out 20 times', { list: Array.from({ length: 20 }, () => shared) }, 10_000, true],
    ['the same, within a larger limit', { list: Array.from({ length: 20 }, () => shared) }, 100_000, false],
    ['dates count as scalars', { at: new Date(0) }, 100, false],
  ])('%s', (_name, value, limit, over) => expect(expandedSizeOver(value, limit)).toBe(over));

  it('a cycle counts as over any limit', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(expandedSizeOver(cyclic, 1e9)).toBe(true);
  });
});

describe('capJson: a plain JSON copy within caps, each cut named', () => {
  it.each([
    ['a string past maxString', { s: 'y'.repeat(25) }, { s: 'y'.repeat(10) }, ['r.s: 25 characters, kept 10']],
    ['a list past maxItems', { l: [1, 2, 3, 4, 5] }, { l: [1, 2, 3] }, ['r.l: 2 of 5 entries left out (more than 3 entries)']],
    ['nesting past maxDepth', { a: { b: { c: { d: 1 } } } }, { a: { b: { c: null } } }, ['r.a.b.c: nested deeper than 3 levels, left out']],
    [
      'dates as ISO strings, undefined and functions left out',
      { d: new Date(0), u: undefined, f: () => 1 },
      { d: '1970-01-01T00:00:00.000Z' },
      [],
    ],
    ['non-finite numbers as null', { n: Number.NaN }, { n: null }, []],
  ])('%s', (_name, value, copy, cuts) => expect(capJson(value, limits, 'r')).toEqual({ value: copy, cuts }));

  it('scalars first, then a fair share for each nested entry: a huge sibling cannot crowd out a short one', () => {
    const value = { notes: Array.from({ length: 50 }, () => 'n'.repeat(100)), next_step: 'go on', more: { a: 'm'.repeat(100) } };
    const { value: copy, cuts } = capJson(value, { maxString: 100, maxItems: 100, maxDepth: 5, maxTotal: 1_000 }, 'r');
    expect(copy).toMatchObject({ next_step: 'go on', more: { a: expect.any(String) } });
    expect(JSON.stringify(copy).length).toBeLessThanOrEqual(1_000);
    expect(cuts.some((cut) => cut.startsWith('r.notes: '))).toBe(true);
  });

  it('shared references are written out only as far as the total allows', () => {
    const shared = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'x'.repeat(100)]));
    const value = { list: Array.from({ length: 100 }, () => shared) };
    const { value: copy } = capJson(value, { maxString: 1_000, maxItems: 1_000, maxDepth: 5, maxTotal: 50_000 }, 'r');
    expect(JSON.stringify(copy, null, 2).length).toBeLessThanOrEqual(60_000);
  });
});
