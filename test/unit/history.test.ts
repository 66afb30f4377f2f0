/** A session's checkpoints as facts: from our records where they hold them, else from each file. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSessionHistory } from '../../src/checkpoints/history.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'history-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entry = (sequence: number, fact?: { trigger: string; timestamp: string }) => ({
  fileName: `cx-00${sequence}-checkpoint.json`,
  sequence,
  path: join(dir, `cx-00${sequence}-checkpoint.json`),
  acknowledged: true,
  ...(fact && { fact }),
});

describe('readSessionHistory', () => {
  it("takes a checkpoint's trigger and time from its record, without reading the file (the monitor asks on every prompt)", () => {
    // The file says otherwise (changed in the project since): the record is what we wrote.
    writeFileSync(
      entry(1).path,
      JSON.stringify({ id: 'cx-001', sequence: 1, trigger: { type: 'manual' }, timestamp: '2020-01-01T00:00:00Z' }),
    );
    const recorded = entry(1, { trigger: 'auto', timestamp: '2026-11-29T00:00:00.000Z' });
    // And one whose file is gone: still counted, from the record.
    const gone = entry(2, { trigger: 'skill', timestamp: '2026-11-29T01:00:00.000Z' });
    expect(readSessionHistory([recorded, gone])).toEqual({
      facts: [
        { sequence: 1, id: 'cx-001', trigger: 'auto', timestamp: '2026-11-29T00:00:00.000Z' },
        { sequence: 2, id: 'cx-002', trigger: 'skill', timestamp: '2026-11-29T01:00:00.000Z' },
      ],
      unread: 0,
    });
  });

  it('reads the file for a record written before records held the facts; a trigger not ours reads as unknown', () => {
    writeFileSync(
      entry(1).path,
      JSON.stringify({ id: 'cx-001', sequence: 1, trigger: { type: 'manual' }, timestamp: '2026-11-28T00:00:00Z' }),
    );
    const odd = entry(2, { trigger: 'rm -rf', timestamp: '' });
    expect(readSessionHistory([entry(1), odd, entry(3)]).facts).toEqual([
      { sequence: 1, id: 'cx-001', trigger: 'manual', timestamp: '2026-11-28T00:00:00Z' },
      { sequence: 2, id: 'cx-002', trigger: 'unknown', timestamp: undefined },
      { sequence: 3, id: 'cx-003', trigger: undefined, timestamp: undefined }, // no record's facts, no file
    ]);
  });
});
