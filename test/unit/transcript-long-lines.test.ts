/**
 * A line longer than the reads so far is not searched on the way: once its start is read, its type is
 * sniffed from its first bytes and only a type the seeker can settle on (or none that can be sniffed)
 * is searched and judged. Whatever the lines and the read size, the answer must be a naive reader's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyModelAttachment, MODEL_ATTACHMENT_TYPE } from '../../src/core/model-attachment.js';
import { classifyRecord, occupancyFromEvidence, RECORD_TYPES } from '../../src/core/occupancy.js';
import { readCompactionSince, readOccupancy, scanTranscript } from '../../src/io/transcript.js';
import { naiveNewestFirst } from '../helpers/naive-reader.js';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { readSessionModelId } from '../../src/window/session-model.js';

const dir = mkdtempSync(join(tmpdir(), 'cc-long-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (content: string) => {
  const path = join(dir, `t${++n}.jsonl`);
  writeFileSync(path, content);
  return path;
};
const MiB = 1024 * 1024;
type Options = Partial<Parameters<typeof readOccupancy>[1]>;
const occupancyOf = (content: string, options: Options = {}) =>
  readOccupancy(file(content), { maxScanBytes: 64 * MiB, ...options }).occupancy;
const boundaryOf = (content: string) => readCompactionSince(file(content), (size) => size).compaction;
const modelOf = (content: string) =>
  readSessionModelId(
    { stateDir: join(dir, 'state'), key: 's', transcript: file(content), maxScanBytes: 64 * MiB, persist: false },
    () => {},
  );

const naive = naiveNewestFirst;

const older = aTranscript().assistant({ cacheRead: 1_000 }).toString(); // 1,005 tokens
const usage = (tokens: number) => `"message":{"role":"x","model":"m","usage":{"input_tokens":${tokens}}}`;

describe('the types a seeker declares', () => {
  it('are every type its classifier accepts: a record settles only with one of them', () => {
    const type = fc.oneof(fc.constantFrom('assistant', 'system', 'attachment', 'user', 'progress', 'Assistant', ''), fc.string());
    fc.assert(
      fc.property(type, (t) => {
        // Fields that would settle every seeker, whatever the type.
        const record = {
          type: t,
          subtype: 'compact_boundary',
          compactMetadata: { postTokens: 1 },
          message: { model: 'm', usage: { input_tokens: 1 } },
          attachment: { type: 'model', identity: { modelId: 'm' } },
        };
        expect(classifyRecord(record) !== undefined).toBe((RECORD_TYPES as readonly string[]).includes(t));
        expect(classifyModelAttachment(record) !== undefined).toBe(t === MODEL_ATTACHMENT_TYPE);
      }),
    );
  });
});

describe('a long line of a type the seeker can settle on is searched and judged', () => {
  it('a turn whose only mark sits in its middle settles, wherever a read boundary cuts the line (through the mark too)', () => {
    // 64-byte reads: each padding shifts the boundaries by one byte, so across 64 paddings one of them splits `"assistant"`.
    for (let tail = 0; tail < 64; tail++) {
      const line = `{"pad":"${'p'.repeat(300)}","type":"assistant",${usage(4_321)},"tail":"${'t'.repeat(tail)}"}`;
      expect(occupancyOf(`${older}${line}\n`, { chunkBytes: 64 })).toEqual({ kind: 'measured', tokens: 4_321, source: 'usage' });
    }
  });

  it('a compaction boundary whose subtype comes after long content settles, wherever a read boundary cuts it', () => {
    for (let tail = 0; tail < 64; tail++) {
      const line = JSON.stringify({
        type: 'system',
        content: 'c'.repeat(300),
        subtype: 'compact_boundary',
        compactMetadata: { postTokens: 777 },
        tail: 't'.repeat(tail),
      });
      expect(occupancyOf(`${older}${line}\n`, { chunkBytes: 64 })).toEqual({ kind: 'measured', tokens: 777, source: 'compaction' });
    }
  });

  it('a line too long to parse is searched again in pieces that overlap: a mark across two pieces is found', () => {
    // The pieces are 64 KiB: put `compact_boundary` across the first piece's end, at every offset around it.
    for (let at = 65_536 - 16; at <= 65_536; at++) {
      const before = '{"type":"system","content":"';
      const after = '","subtype":"';
      const line = `${before}${'c'.repeat(at - before.length - after.length)}${after}compact_boundary","compactMetadata":{"postTokens":777}}`;
      expect(line.indexOf('compact_boundary')).toBe(at);
      expect(occupancyOf(`${older}${line}\n`, { chunkBytes: 4096, maxParseBytes: 1000 })).toEqual({
        kind: 'measured',
        tokens: 777,
        source: 'compaction',
      });
    }
  });

  it('the compaction seeker of the notice finds a long boundary whose mark is far into it', () => {
    const line = JSON.stringify({
      type: 'system',
      content: 'c'.repeat(200_000),
      subtype: 'compact_boundary',
      compactMetadata: { preTokens: 9 },
    });
    expect(boundaryOf(`${older}${line}\n${aTranscript().toolResult(100_000).toString()}`)).toMatchObject({
      kind: 'compaction',
      preTokens: 9,
    });
  });

  it('a long model attachment, written with its type after the attachment as Claude Code does, is found', () => {
    const line = aTranscript()
      .modelAttachment('claude-opus-4-6[1m]')
      .toString()
      .replace('"text":"', `"text":"${'m'.repeat(200_000)}`);
    expect(
      modelOf(`${aTranscript().modelAttachment('claude-sonnet-4-5').toString()}${line}${aTranscript().toolResult(100_000).toString()}`),
    ).toBe('claude-opus-4-6[1m]');
  });
});

describe('a long line of another type is skipped without being searched', () => {
  /** A tool result holding every mark outside its strings, even a whole turn with usage. */
  const decoy = (bytes: number) =>
    `${JSON.stringify({
      parentUuid: null,
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', content: 'x'.repeat(bytes) }] },
      toolUseResult: { nested: { type: 'assistant', message: { model: 'm', usage: { input_tokens: 99_999 } } } },
      boundary: { type: 'system', subtype: 'compact_boundary', compactMetadata: { postTokens: 1 } },
      attachment: { type: 'model', identity: { modelId: 'decoy' } },
    })}\n`;

  it('a tool result holding marks, and a turn, does not settle occupancy, at any read size', () => {
    for (const chunkBytes of [64, 1000, 4096])
      expect(occupancyOf(`${older}${decoy(10_000)}`, { chunkBytes })).toMatchObject({ tokens: 1_005 });
    expect(occupancyOf(`${older}${decoy(3 * MiB)}`)).toMatchObject({ tokens: 1_005 });
  });

  it('nor the compaction seeker, nor the model seeker', () => {
    const boundary = aTranscript().compactBoundary({ preTokens: 5 }).toString();
    expect(boundaryOf(`${boundary}${decoy(200_000)}`)).toMatchObject({ preTokens: 5 });
    const model = aTranscript().modelAttachment('claude-haiku-4-5').toString();
    expect(modelOf(`${model}${decoy(200_000)}`)).toBe('claude-haiku-4-5');
    const fileAttachment = JSON.stringify({
      attachment: { type: 'file', content: 'f'.repeat(200_000), identity: { modelId: 'decoy' } },
      type: 'attachment',
    });
    expect(modelOf(`${model}${fileAttachment}\n`)).toBe('claude-haiku-4-5');
  });
});

describe('a long line whose type cannot be sniffed is judged as before', () => {
  const cases: [string, string][] = [
    ['an escaped key spells type', `{"pad":"${'p'.repeat(5_000)}","typ\\u0065":"assistant",${usage(4_321)}}`],
    [
      'an escaped type value (the mark elsewhere)',
      `{"type":"assist\\u0061nt","message":{"role":"assistant","pad":"${'p'.repeat(5_000)}","model":"m","usage":{"input_tokens":4321}}}`,
    ],
    [
      'the type after a message longer than a sniff reads',
      `{"isSidechain":false,${usage(4_321).slice(0, -1)},"pad":"${'p'.repeat(10_000)}"},"type":"assistant"}`,
    ],
    ['an escaped key before the type', `{"p\\"ad":"${'p'.repeat(5_000)}","type":"assistant",${usage(4_321)}}`],
  ];
  it.each(cases)('%s: it still settles', (_name, line) => {
    expect(JSON.parse(line)).toMatchObject({ type: 'assistant' });
    for (const chunkBytes of [7, 1000])
      expect(occupancyOf(`${older}${line}\n`, { chunkBytes })).toEqual({ kind: 'measured', tokens: 4_321, source: 'usage' });
  });
});

describe('the time budget inside a long line', () => {
  // Too long to parse (a sketch streams it): the budget is asked before each read, the line's and the sketch's.
  const big = aTranscript()
    .assistant({ cacheRead: 77_000, text: 'w'.repeat(400_000) })
    .toString();
  const options = { maxScanBytes: 64 * MiB, chunkBytes: 16 * 1024, maxParseBytes: 100_000 };

  /** Scan `content` with a budget that runs out after 0, 1, 2, … checks, until the scan settles; each timed-out result. */
  function runOutAtEveryCheck(content: string): ReturnType<typeof scanTranscript>[] {
    const path = file(content);
    const timedOut: ReturnType<typeof scanTranscript>[] = [];
    for (let allowed = 0; allowed < 500; allowed++) {
      let calls = 0;
      const result = scanTranscript(path, { ...options, timeUp: () => ++calls > allowed });
      if (result.evidence !== undefined) {
        expect(result).toMatchObject({ evidence: { kind: 'usage', tokens: 77_005 }, timedOut: false });
        return timedOut;
      }
      expect(result, `budget of ${allowed} checks`).toMatchObject({ capHit: true, timedOut: true });
      timedOut.push(result);
    }
    throw new Error('the scan never settled');
  }

  it('whenever the budget runs out, the scan either settles or says it ran out of time', () => {
    const timedOut = runOutAtEveryCheck(`${older}${big}${aTranscript().user('go').toString()}`);
    // More checks than the line's reads: some came while the line was judged, and each stopped the scan.
    expect(timedOut.length).toBeGreaterThan(Math.ceil(Buffer.byteLength(big) / options.chunkBytes) + 1);
  });

  it('the same when the long line is the file’s first: running out while judging it is a timeout, not "no usage"', () => {
    const content = `${big}${aTranscript().user('go').toString()}`;
    const timedOut = runOutAtEveryCheck(content);
    // Some budgets ran out after the file's start was read, while its first line was judged.
    expect(timedOut.filter((result) => result.bytesScanned === Buffer.byteLength(content)).length).toBeGreaterThan(0);
  });
});

/** Lines of every kind, long ones included, with marks inside and outside their strings. */
const tokens = fc.integer({ min: 1, max: 900_000 });
const pad = fc.integer({ min: 0, max: 3_000 }).map((size) => 'x'.repeat(size));
const nested = fc.constantFrom(
  {},
  { role: 'assistant' },
  { subtype: 'compact_boundary' },
  { type: 'assistant', message: { model: 'm', usage: { input_tokens: 7 } } },
);
const lineOf = (record: unknown) => `${JSON.stringify(record)}\n`;
const anyLine = fc.oneof(
  fc.tuple(tokens, pad).map(([cacheRead, text]) => aTranscript().assistant({ cacheRead, text }).toString()),
  fc
    .tuple(tokens, pad)
    .map(([cacheRead, text]) => aTranscript().sidechain({ cacheRead }).toString().replace('"text":"done"', `"text":"${text}"`)),
  fc
    .tuple(tokens, pad)
    .map(([input_tokens, text]) => lineOf({ type: 'assistant', pad: text, message: { model: 'm', usage: { input_tokens } } })),
  fc
    .tuple(tokens, pad)
    .map(([postTokens, content]) => lineOf({ type: 'system', content, subtype: 'compact_boundary', compactMetadata: { postTokens } })),
  fc.tuple(pad, nested).map(([content, inner]) => lineOf({ type: 'system', subtype: 'informational', content, inner })),
  fc
    .tuple(pad, nested)
    .map(([content, inner]) => lineOf({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content }] }, inner })),
  fc.tuple(pad, nested).map(([content, inner]) => lineOf({ inner, attachment: { type: 'file', content }, type: 'attachment' })),
  fc.tuple(pad, nested).map(([content, inner]) => lineOf({ type: 'progress', data: { content, message: inner } })),
  fc.tuple(tokens, pad).map(([t, text]) => `{"pad":"${text}","typ\\u0065":"assistant",${usage(t)}}\n`),
  fc.tuple(tokens, pad).map(([t, text]) => `{"pad":"${text}","type":"assistant",${usage(t)}`), // torn, then the next line
  fc.constantFrom('\n', '\n\n\n', 'garbage "assistant"\n', '{"type":"assistant"}\n', '{"a":1}"assistant"\n', '["assistant"]\n'),
);
const transcript = fc.array(anyLine, { maxLength: 12 }).map((lines) => lines.join(''));

describe('any lines, any read size: the answer is a naive reader’s', () => {
  it('occupancy, with reads of a few bytes to a few KB', () => {
    fc.assert(
      fc.property(transcript, fc.integer({ min: 1, max: 5_000 }), (content, chunkBytes) => {
        const expected = occupancyFromEvidence(naive(content, (record) => classifyRecord(record)));
        expect(occupancyOf(content, { chunkBytes })).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('occupancy, with lines too long to parse streamed through the sketch', () => {
    // The sketch reads no escaped keys (JSON.parse does): such lines are left out here.
    const unescaped = transcript.filter((content) => !content.includes('\\u0065'));
    fc.assert(
      fc.property(
        unescaped,
        fc.integer({ min: 1, max: 5_000 }),
        fc.integer({ min: 200, max: 4_000 }),
        (content, chunkBytes, maxParseBytes) => {
          const expected = occupancyFromEvidence(naive(content, (record) => classifyRecord(record)));
          expect(occupancyOf(content, { chunkBytes, maxParseBytes })).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the compaction and model seekers, across lines longer than their 64 KiB reads', () => {
    const long = fc.integer({ min: 50_000, max: 300_000 }).map((size) => 'y'.repeat(size));
    const longLine = fc.oneof(
      anyLine,
      long.map((content) =>
        lineOf({ type: 'system', content, subtype: 'compact_boundary', compactMetadata: { preTokens: content.length } }),
      ),
      long.map((content) =>
        lineOf({ type: 'user', message: { content }, inner: { subtype: 'compact_boundary', identity: { modelId: 'decoy' } } }),
      ),
      long.map((text) => aTranscript().modelAttachment(`model-${text.length}`).toString().replace('"text":"', `"text":"${text}`)),
      fc
        .tuple(long, fc.nat(50))
        .map(([text, i]) => aTranscript().modelAttachment(`short-${i}`).toString().replace('"rendered":[', `"pad":"${text}","rendered":[`)),
    );
    fc.assert(
      fc.property(fc.array(longLine, { maxLength: 6 }), (lines) => {
        const content = lines.join('');
        expect(boundaryOf(content)).toEqual(
          naive(content, (record) => (classifyRecord(record)?.kind === 'compaction' ? classifyRecord(record) : undefined)),
        );
        expect(modelOf(content)).toEqual(naive(content, classifyModelAttachment));
      }),
      { numRuns: 40 },
    );
  });
});
