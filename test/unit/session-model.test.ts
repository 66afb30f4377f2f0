/** The transcript's model attachment, found once per session and then followed through what is appended. */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { readSessionModelId } from '../../src/window/session-model.js';

const root = mkdtempSync(join(tmpdir(), 'cc-session-model-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function place(transcript: string, persist = true) {
  n += 1;
  const stateDir = join(root, `state-${n}`);
  const path = join(root, `t-${n}.jsonl`);
  writeFileSync(path, transcript);
  return { stateDir, key: 'session-1', transcript: path, maxScanBytes: 64 * 1024 * 1024, persist };
}
const lines: string[] = [];
const debug = (line: string) => lines.push(line);
/** A long session: the attachment at its start, then `turns` turns of tool output. */
const longSession = (modelId: string, turns = 200) => {
  const t = aTranscript().modelAttachment(modelId).user('go');
  for (let i = 0; i < turns; i++) t.assistant({ cacheRead: 10_000 + i, model: 'claude-sonnet-4-5-20250929' }).toolResult(20_000);
  return t.toString();
};

describe('readSessionModelId', () => {
  it('finds the attachment at the start of a long transcript, with its [1m]', () => {
    expect(readSessionModelId(place(longSession('claude-sonnet-4-5[1m]')), debug)).toBe('claude-sonnet-4-5[1m]');
  });

  it('the newest attachment wins (a model switch, or the one after a compaction)', () => {
    const text = aTranscript()
      .modelAttachment('claude-sonnet-4-5')
      .assistant({ cacheRead: 1 })
      .modelAttachment('claude-opus-4-6[1m]')
      .toString();
    expect(readSessionModelId(place(text), debug)).toBe('claude-opus-4-6[1m]');
  });

  it('later calls read only what was appended: the kept answer stands even when the start is no longer readable', () => {
    const p = place(longSession('claude-sonnet-4-5[1m]'));
    expect(readSessionModelId(p, debug)).toBe('claude-sonnet-4-5[1m]');
    // Blank the attachment in place (same size): a search from the start could no longer find it.
    const text = readFileSync(p.transcript, 'utf8');
    writeFileSync(p.transcript, text.replace('"modelId":"claude-sonnet-4-5[1m]"', '"modelXd":"claude-sonnet-4-5[1m]"'));
    appendFileSync(p.transcript, aTranscript().assistant({ cacheRead: 5 }).toString());
    expect(readSessionModelId(p, debug)).toBe('claude-sonnet-4-5[1m]');
    appendFileSync(p.transcript, aTranscript().modelAttachment('claude-haiku-4-5').toString());
    expect(readSessionModelId(p, debug)).toBe('claude-haiku-4-5');
  });

  it('a replaced (shorter) transcript is searched again', () => {
    const p = place(longSession('claude-sonnet-4-5[1m]'));
    readSessionModelId(p, debug);
    writeFileSync(p.transcript, aTranscript().modelAttachment('claude-opus-4-6').toString());
    expect(readSessionModelId(p, debug)).toBe('claude-opus-4-6');
  });

  it('none in the transcript: undefined; the sidechain attachments of a subagent do not count', () => {
    expect(readSessionModelId(place(aTranscript().assistant({ cacheRead: 1 }).toString()), debug)).toBeUndefined();
    const sidechain = aTranscript().modelAttachment('claude-haiku-4-5').toString().replace('"isSidechain":false', '"isSidechain":true');
    expect(readSessionModelId(place(sidechain), debug)).toBeUndefined();
  });

  it('persist: false keeps nothing (commands that only look)', () => {
    const p = place(longSession('claude-sonnet-4-5[1m]', 2), false);
    expect(readSessionModelId(p, debug)).toBe('claude-sonnet-4-5[1m]');
    expect(existsSync(p.stateDir)).toBe(false);
  });

  it('an unusable state directory still answers (from the transcript), and says why on the debug channel', () => {
    const p = place(longSession('claude-sonnet-4-5[1m]', 2));
    writeFileSync(p.stateDir, 'a file where the state directory should be');
    lines.length = 0;
    expect(readSessionModelId(p, debug)).toBe('claude-sonnet-4-5[1m]');
    expect(lines.join('\n')).toMatch(/model attachment not kept/);
  });

  it('a missing transcript: undefined, no throw', () => {
    expect(readSessionModelId({ ...place(''), transcript: join(root, 'nope.jsonl') }, debug)).toBeUndefined();
  });
});

describe('the time budget', () => {
  it('a search the budget cut short is not kept as "no attachment": the next hook, in time, finds it', () => {
    const p = place(longSession('claude-opus-4-6[1m]'));
    expect(readSessionModelId({ ...p, timeUp: () => true }, debug)).toBeUndefined();
    expect(existsSync(join(p.stateDir, 'sessions'))).toBe(false);
    expect(readSessionModelId(p, debug)).toBe('claude-opus-4-6[1m]');
  });
});
