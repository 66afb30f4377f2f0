import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ownCheckpoints } from '../../src/checkpoints/alerts.js';
import type { WrittenRecord } from '../../src/checkpoints/provenance.js';

let root: string | undefined;
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

function checkpointsOn(disk: Array<[session: string, sequence: number]>): Map<string, string> {
  root = mkdtempSync(join(tmpdir(), 'own-checkpoints-'));
  const paths = new Map<string, string>();
  for (const [session, sequence] of disk) {
    mkdirSync(join(root, session), { recursive: true });
    const path = join(root, session, `cx-${String(sequence).padStart(3, '0')}-checkpoint.json`);
    writeFileSync(path, '{}');
    paths.set(`${session}/${sequence}`, path);
  }
  return paths;
}

const record = (paths: Map<string, string>, session: string, sequence: number): WrittenRecord => ({
  kind: 'checkpoint',
  path: paths.get(`${session}/${sequence}`)!,
  session,
  sequence,
  digest: 'd',
});

describe('ownCheckpoints', () => {
  it('racing PreCompacts that recorded out of order still list a session by number: the newest is last', () => {
    const paths = checkpointsOn([
      ['s1', 5],
      ['s1', 6],
    ]);
    const entries = ownCheckpoints([record(paths, 's1', 6), record(paths, 's1', 5)], 's1');
    expect(entries.map((e) => e.sequence)).toEqual([5, 6]);
  });

  it('sessions keep the order of their latest record; within each, numbers rise', () => {
    const paths = checkpointsOn([
      ['a', 1],
      ['a', 2],
      ['b', 1],
    ]);
    const records = [record(paths, 'a', 2), record(paths, 'b', 1), record(paths, 'a', 1)];
    expect(ownCheckpoints(records).map((e) => `${e.session}/${e.sequence}`)).toEqual(['b/1', 'a/1', 'a/2']);
  });
});
