import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyRecord } from '../../src/core/occupancy.js';
import { MAX_SKETCH_DEPTH, RecordSketch } from '../../src/core/record-sketch.js';

const KEPT = ['type', 'subtype', 'isSidechain', 'isApiErrorMessage', 'agentId', 'compactMetadata'] as const;

/** Feed `text` split at the given cut points. */
function sketch(text: string, cuts: number[] = []): Record<string, unknown> | undefined {
  const bytes = Buffer.from(text);
  const sketcher = new RecordSketch();
  let from = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
    sketcher.feed(bytes.subarray(from, cut));
    from = cut;
  }
  sketcher.feed(bytes.subarray(from));
  return sketcher.result();
}

/** What the sketch should keep, computed from a full parse. */
function expected(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEPT) if (key in record) out[key] = record[key];
  const message = record.message;
  if (typeof message === 'object' && message !== null && !Array.isArray(message) && ('model' in message || 'usage' in message)) {
    out.message = { model: (message as Record<string, unknown>).model, usage: (message as Record<string, unknown>).usage };
  }
  return out;
}

const record = fc.record(
  {
    type: fc.oneof(fc.constantFrom('assistant', 'user', 'system', 'progress'), fc.jsonValue({ maxDepth: 2 })),
    subtype: fc.constantFrom('compact_boundary', 'other'),
    isSidechain: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
    isApiErrorMessage: fc.boolean(),
    agentId: fc.string(),
    compactMetadata: fc.jsonValue({ maxDepth: 3 }),
    message: fc.oneof(
      fc.record(
        {
          model: fc.oneof(fc.string(), fc.constant('<synthetic>')),
          content: fc.jsonValue({ maxDepth: 3 }),
          usage: fc.oneof(fc.record({ input_tokens: fc.nat(), cache_read_input_tokens: fc.nat() }), fc.jsonValue({ maxDepth: 2 })),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    data: fc.jsonValue({ maxDepth: 4 }),
    text: fc.string({ unit: 'binary' }),
  },
  { requiredKeys: [] },
);

describe('RecordSketch', () => {
  it('keeps exactly the fields a full JSON.parse would give, however the bytes are split', () => {
    fc.assert(
      fc.property(record, fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (value, cuts, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(sketch(text, cuts)).toEqual(JSON.parse(JSON.stringify(expected(value))));
      }),
      { numRuns: 400 },
    );
  });

  it('classifies like the parsed record does', () => {
    fc.assert(
      fc.property(record, (value) => {
        const text = JSON.stringify(value);
        expect(classifyRecord(sketch(text))).toEqual(classifyRecord(JSON.parse(text)));
      }),
      { numRuns: 400 },
    );
  });

  it('a truncated record is no record', () => {
    fc.assert(
      fc.property(record, fc.nat(), (value, cut) => {
        const text = JSON.stringify(value);
        const end = cut % text.length;
        fc.pre(end < text.length - 1);
        expect(sketch(text.slice(0, end))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['a string root', '"assistant"'],
    ['an array root', '[{"type":"assistant"}]'],
    ['trailing garbage', '{"type":"assistant"} x'],
    ['two roots', '{"type":"assistant"}{"type":"user"}'],
    ['a missing colon', '{"type" "assistant"}'],
    ['a trailing comma', '{"type":"assistant",}'],
    ['mismatched brackets', '{"type":["assistant"}'],
  ])('%s is no record', (_name, text) => {
    expect(sketch(text)).toBeUndefined();
  });

  it('drops a kept value that is implausibly large', () => {
    const text = JSON.stringify({ type: 'assistant', message: { model: 'm', usage: { input_tokens: 5, junk: 'j'.repeat(100_000) } } });
    expect(sketch(text)).toEqual({ type: 'assistant', message: { model: 'm', usage: undefined } });
  });

  it('a record nested deeper than MAX_SKETCH_DEPTH is garbage, whatever its length, and one level less still reads', () => {
    const nested = (depth: number) =>
      `{"type":"assistant","message":{"usage":{"input_tokens":5}},"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(sketch(nested(MAX_SKETCH_DEPTH - 1))).toMatchObject({ type: 'assistant' });
    expect(sketch(nested(MAX_SKETCH_DEPTH))).toBeUndefined();
    expect(sketch(nested(2_000_000))).toBeUndefined();
  });
});
