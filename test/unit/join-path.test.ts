import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { join } from '../../src/io/join-path.js';

const SEGMENTS = [
  'a',
  'b',
  '.claude',
  'context-ceiling',
  'x.json',
  '.',
  '..',
  '...',
  '',
  '/',
  '//',
  'a/',
  '/b',
  'a/./b',
  'a/../b',
  'a//b',
  '.a',
  'a.',
];

describe('join', () => {
  it('is path.join for any parts, normal or not', () => {
    const part = fc.constantFrom(...SEGMENTS);
    fc.assert(
      fc.property(fc.boolean(), fc.array(part, { minLength: 1, maxLength: 5 }), (absolute, parts) => {
        const given = absolute ? [`/${parts[0]}`, ...parts.slice(1)] : parts;
        expect(join(...given)).toBe(path.join(...given));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    [['/home/dev', '.claude', 'context-ceiling.json'], '/home/dev/.claude/context-ceiling.json'],
    [['/'], '/'],
    [['/', 'a'], '/a'],
    [['/home/dev/', 'x'], '/home/dev/x'],
    [['/home/dev', '..', 'x'], '/home/x'],
    [['/home/dev', ''], '/home/dev'],
    [['', 'a'], 'a'],
    [['relative', 'a'], 'relative/a'],
    [['/a/.', 'b'], '/a/b'],
  ])('%j → %s', (parts, joined) => {
    expect(join(...parts)).toBe(joined);
  });

  it('refuses what path.join refuses', () => {
    expect(() => join('/a', 1 as unknown as string)).toThrow(TypeError);
  });
});
