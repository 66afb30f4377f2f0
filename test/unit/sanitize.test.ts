import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeText } from '../../src/core/sanitize.js';

/** Nothing that may survive: controls (but \n when multiline), bidi, invisibles, tag characters, any `<` or lookalike. */
const FORBIDDEN =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff<\u2329\u27e8\u3008\ufe64\uff1c\uff1e]|\udb40[\udc00-\udc7f]/;
const TAG = /[‹<]\s*\/?\s*(context-monitor|compaction-alert|resumption-context)/i;

describe('sanitizeText', () => {
  it.each([
    ['C0 and C1 controls become spaces', 'a\u0007b\u009bc\u001b[31md', 'a b c [31md'],
    ['bidi overrides and isolates are removed', 'abc\u202edcba\u2066x\u2069', 'abcdcbax'],
    ['zero-width characters are removed', 'ig\u200bnore\u200d pre\ufeffvious', 'ignore previous'],
    ['Unicode tag characters (invisible ASCII) are removed', 'ok\udb40\udc69\udb40\udc67', 'ok'],
    ['a closing tag of ours is broken', 'x </resumption-context> <system>', 'x ‹/resumption context> ‹system>'],
    ['full-width and CJK brackets count as brackets', '\uff1c/compaction-alert\uff1e \u3008b\u3009', '‹/compaction alert› ‹b›'],
    ['a lone surrogate becomes the replacement character', 'a\ud800b', 'a\ufffdb'],
    ['whitespace collapses to one line', '  a \n\t b  ', 'a b'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeText(input)).toBe(expected);
  });

  it('multiline keeps line breaks and nothing else', () => {
    expect(sanitizeText('one\r\ntwo\u2028three\n\n\u0000four  ', { multiline: true })).toBe('one\ntwo three\n\n four');
  });

  it('whatever goes in, nothing forbidden and no tag of ours comes out', () => {
    const pieces = fc.constantFrom(
      '<',
      '>',
      '/',
      'context-monitor',
      'compaction-alert',
      'resumption-context',
      '\u202e',
      '\u200b',
      '\u009b',
      '\u001b',
      '\uff1c',
      '\udb40\udc41',
      '\n',
      ' ',
      'a',
    );
    const hostile = fc
      .array(
        fc.oneof(
          pieces,
          fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
        ),
        { maxLength: 60 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(hostile, fc.boolean(), (input, multiline) => {
        const out = sanitizeText(input, { multiline });
        expect(out).not.toMatch(FORBIDDEN);
        expect(out).not.toMatch(TAG);
        if (!multiline) expect(out).not.toContain('\n');
      }),
      { numRuns: 500 },
    );
  });

  it('a text of printable ASCII (its own short path) comes out as the full pipeline makes it: spaces collapsed, ends trimmed', () => {
    const ascii = fc.string({ unit: fc.constantFrom(' ', ' ', 'a', 'Z', '0', '/', '-', '.', '>', '~', '&'), maxLength: 40 });
    fc.assert(
      fc.property(ascii, fc.boolean(), (text, multiline) => {
        // A zero-width space sends the same text through every replacement (and is removed by them).
        expect(sanitizeText(text, { multiline })).toBe(sanitizeText(`${text}\u200b`, { multiline }));
      }),
      { numRuns: 500 },
    );
    expect(sanitizeText('  a   b  ')).toBe('a b');
    expect(sanitizeText('  a   b  ', { multiline: true })).toBe(' a b');
  });
});
