/** sniffRecordType: a line's first top-level type, from its bytes, or "cannot tell" — never a wrong type. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SNIFF_OTHER, SNIFF_UNKNOWN, sniffRecordType } from '../../src/core/record-sniff.js';

const NAMES = ['assistant', 'system', 'attachment'].map((name) => Buffer.from(name));
const sniff = (line: string) => {
  const bytes = Buffer.from(`junk\n${line}\nmore "type":"assistant"`);
  return sniffRecordType(bytes, 5, 5 + Buffer.byteLength(line), NAMES);
};

describe('sniffRecordType', () => {
  it.each([
    ['{"type":"assistant"}', 0],
    ['{"type":"system","subtype":"compact_boundary"}', 1],
    ['{"parentUuid":null,"isSidechain":false,"attachment":{"type":"model"},"type":"attachment"}', 2],
    // nested types, strings with quotes, escapes and brackets before the top-level one are skipped
    ['{"message":{"type":"message","role":"assistant","content":[{"type":"text","text":"a \\"}] {[ \\\\"}]},"type":"user"}', SNIFF_OTHER],
    ['{"a":[1,2,{"type":"assistant"}],"b":-1.5e3,"c":true,"d":null,"type":"assistant"}', 0],
    [' { "type" : "assistant" } ', 0],
    ['{"type":"progress","data":{"message":{"type":"assistant"}}}', SNIFF_OTHER],
    ['{"type":"assistants"}', SNIFF_OTHER],
    ['{"type":"assistan"}', SNIFF_OTHER],
    ['{"types":"assistant"}', SNIFF_OTHER],
    ['{"type":7}', SNIFF_OTHER],
    ['{"other":1}', SNIFF_OTHER],
    ['{}', SNIFF_OTHER],
    // what the sniff cannot tell is left to JSON.parse
    ['{"type":"assist\\u0061nt"}', SNIFF_UNKNOWN],
    ['{"ty\\u0070e":"assistant"}', SNIFF_UNKNOWN],
    ['{"message":{"role":"assistant"', SNIFF_UNKNOWN],
    ['{"type":"assistant', SNIFF_UNKNOWN],
    ['{"a":tru"e,"type":"user"}', SNIFF_UNKNOWN],
    ['[{"type":"assistant"}]', SNIFF_UNKNOWN],
    ['garbage', SNIFF_UNKNOWN],
    ['', SNIFF_UNKNOWN],
    ['{"a" "type":"user"}', SNIFF_UNKNOWN],
  ])('%s → %i', (line, expected) => {
    expect(sniff(line)).toBe(expected);
  });

  it('agrees with JSON.parse on every object JSON.stringify writes', () => {
    const record = fc.dictionary(
      fc.oneof(fc.constant('type'), fc.string()),
      fc.oneof(fc.constantFrom('assistant', 'system', 'attachment', 'user', 'progress'), fc.jsonValue()),
    );
    fc.assert(
      fc.property(record, (value) => {
        const line = JSON.stringify(value);
        const got = sniff(line);
        const type = JSON.parse(line).type;
        const index = NAMES.findIndex((name) => name.toString() === type);
        // Escaped keys and types are left to JSON.parse; otherwise the sniff says exactly what parsing does.
        if (got === SNIFF_UNKNOWN) expect(line).toContain('\\');
        else expect(got).toBe(index === -1 ? SNIFF_OTHER : index);
      }),
      { numRuns: 2000 },
    );
  });

  // Short strings are searched byte by byte, long ones natively from the 64th byte on: both ways, and the seam between them.
  it('agrees with JSON.parse on strings of any length, escaped quotes and backslashes at any byte', () => {
    const text = fc
      .array(fc.oneof(fc.constantFrom('"', '\\', '\\"', 'x', '{', '}', '[', ']', ',', ':'), fc.string({ maxLength: 3 })), {
        maxLength: 150,
      })
      .map((parts) => parts.join(''));
    const record = fc.tuple(fc.array(fc.tuple(text, fc.oneof(text, fc.array(text, { maxLength: 3 }))), { maxLength: 4 }), fc.boolean());
    fc.assert(
      fc.property(record, ([pairs, typed]) => {
        const value: Record<string, unknown> = {};
        for (const [key, inner] of pairs) if (key !== 'type') value[key] = inner;
        if (typed) value.type = 'attachment';
        const line = JSON.stringify(value);
        const got = sniff(line);
        if (got === SNIFF_UNKNOWN) expect(line).toContain('\\');
        else expect(got).toBe(typed ? 2 : SNIFF_OTHER);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([63, 64, 65, 200])('skips a %i-byte string whose quote sits past the bytes looked at one by one', (length) => {
    const long = `${'x'.repeat(length - 2)}\\"`;
    expect(sniff(JSON.stringify({ a: long, type: 'system' }))).toBe(1);
    expect(sniff(JSON.stringify({ a: 'x'.repeat(length), type: 'system' }))).toBe(1);
    expect(sniff(`{"a":"${'x'.repeat(length)}`)).toBe(SNIFF_UNKNOWN);
  });
});
