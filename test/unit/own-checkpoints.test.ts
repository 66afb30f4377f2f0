import { lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ownCheckpoints } from '../../src/checkpoints/alerts.js';
import type { WrittenRecord } from '../../src/checkpoints/provenance.js';
import { type FolderListings, folderListings } from '../../src/checkpoints/store.js';
import { ackMarkerNames, isAckMarkerOf } from '../../src/core/checkpoint.js';

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

describe('ownCheckpoints from folder listings (SessionStart lists each session folder once)', () => {
  it('answers as asking for each file: missing ones, links and folders named like checkpoints are left out; both markers count', () => {
    const paths = checkpointsOn([
      ['a', 1],
      ['a', 2],
      ['a', 3],
      ['b', 1],
      ['c', 1],
    ]);
    const at = (key: string) => paths.get(key)!;
    writeFileSync(at('a/1').replace(/\.json$/, '.acknowledged'), ''); // ours
    writeFileSync(`${at('b/1')}.acknowledged`, ''); // seed 000's
    rmSync(at('a/2')); // recorded, gone since
    rmSync(at('c/1'));
    mkdirSync(at('c/1')); // a folder where the file was
    const link = join(root!, 'a', 'cx-004-checkpoint.json');
    symlinkSync(at('a/3'), link);
    const records = [
      record(paths, 'a', 1),
      record(paths, 'a', 2),
      record(paths, 'a', 3),
      { ...record(paths, 'a', 3), path: link, sequence: 4 },
      record(paths, 'b', 1),
      record(paths, 'c', 1),
    ];
    const listings = folderListings();
    const listed = ownCheckpoints(records, undefined, listings);
    expect(listed.map((e) => `${e.session}/${e.sequence}${e.acknowledged ? ' ack' : ''}`)).toEqual(['a/1 ack', 'a/3', 'b/1 ack']);
    expect(listed).toEqual(ownCheckpoints(records));
    // Each folder was listed (and is asked again from the listing, not the disk).
    expect(listings(join(root!, 'a'))?.entries.some((e) => e.name === 'cx-004-checkpoint.json')).toBe(true);
  });

  it('a folder of many entries (indexed once, not searched name by name) answers the same', () => {
    const paths = checkpointsOn([
      ['a', 1],
      ['a', 2],
      ['a', 3],
    ]);
    const at = (key: string) => paths.get(key)!;
    for (let n = 0; n < 40; n++) writeFileSync(join(root!, 'a', `notes-${n}.md`), '');
    writeFileSync(at('a/1').replace(/\.json$/, '.acknowledged'), ''); // ours
    writeFileSync(`${at('a/3')}.acknowledged`, ''); // seed 000's
    rmSync(at('a/2'));
    mkdirSync(at('a/2')); // a folder where the file was
    const records = [record(paths, 'a', 1), record(paths, 'a', 2), record(paths, 'a', 3)];
    const listed = ownCheckpoints(records, undefined, folderListings());
    expect(listed.map((e) => `${e.sequence}${e.acknowledged ? ' ack' : ''}`)).toEqual(['1 ack', '3 ack']);
    expect(listed).toEqual(ownCheckpoints(records));
  });

  it('a folder listed only in part answers nothing about names beyond the listing: those are asked for by path', () => {
    const paths = checkpointsOn([['a', 1]]);
    writeFileSync(paths.get('a/1')!.replace(/\.json$/, '.acknowledged'), '');
    const partial: FolderListings = (dir) => ({ entries: [], more: true, stat: lstatSync(dir) });
    expect(ownCheckpoints([record(paths, 'a', 1)], undefined, partial).map((e) => e.acknowledged)).toEqual([true]);
  });
});

describe('isAckMarkerOf', () => {
  it('is ackMarkerNames(fileName).includes(name), for checkpoint names and any other', () => {
    const checkpointName = fc.integer({ min: 1, max: 999_999_999 }).map((n) => `cx-${String(n).padStart(3, '0')}-checkpoint.json`);
    const fileName = fc.oneof(checkpointName, fc.string(), fc.constantFrom('.json', 'x.acknowledged', 'a.json.json'));
    const name = (file: string) =>
      fc.oneof(
        fc.constantFrom(...ackMarkerNames(file), file, `${file}.acknowledged.acknowledged`, '.acknowledged', ''),
        fc.string().map((s) => `${s}.acknowledged`),
        fc.string(),
        // one character changed in a marker's name
        fc.tuple(fc.constantFrom(...ackMarkerNames(file)), fc.nat(), fc.string({ minLength: 1, maxLength: 1 })).map(([m, i, c]) => {
          const at = m.length === 0 ? 0 : i % m.length;
          return `${m.slice(0, at)}${c}${m.slice(at + 1)}`;
        }),
      );
    fc.assert(
      fc.property(
        fileName.chain((file) => fc.tuple(fc.constant(file), name(file))),
        ([file, candidate]) => isAckMarkerOf(candidate, file) === ackMarkerNames(file).includes(candidate),
      ),
      { numRuns: 2000 },
    );
  });
});
