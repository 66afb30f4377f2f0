import {
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findNotOurs } from '../../src/checkpoints/found.js';
import {
  canonicalPath,
  digestOf,
  isOwnFile,
  privateProjectDir,
  readWrittenRecords,
  recordsKey,
  recordWritten,
  rememberRecordsKey,
} from '../../src/checkpoints/provenance.js';

let root: string;
let state: string;
let real: string;
let link: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'provenance-')));
  state = join(root, 'state');
  real = join(root, 'real-project');
  link = join(root, 'linked-project');
  mkdirSync(state, { mode: 0o700 });
  mkdirSync(join(real, 'cp', 's1'), { recursive: true });
  symlinkSync(real, link);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A checkpoint written and recorded through `projectDir`, as PreCompact does. */
function writeOurs(projectDir: string, name = 'cx-001-checkpoint.json'): { path: string; text: string } {
  const path = join(projectDir, 'cp', 's1', name);
  const text = `{"id":"${name}"}\n`;
  writeFileSync(path, text);
  recordWritten(state, projectDir, { kind: 'checkpoint', path, session: 's1', sequence: 1, digest: digestOf(text) });
  return { path, text };
}

describe('provenance is keyed by the real path', () => {
  it('a project reached through a symlinked path is the same project: one records file, one fallback folder', () => {
    const { text } = writeOurs(link);
    const records = readWrittenRecords(state, real);
    expect(records.map((r) => r.path)).toEqual([join(real, 'cp', 's1', 'cx-001-checkpoint.json')]);
    expect(readWrittenRecords(state, link)).toEqual(records);
    for (const reached of [real, link])
      expect(isOwnFile(records, 'checkpoint', join(reached, 'cp', 's1', 'cx-001-checkpoint.json'), text)).toBe(true);
    expect(privateProjectDir(state, link)).toBe(privateProjectDir(state, real));
  });

  it('written from the real path, found from the symlinked one', () => {
    const { text } = writeOurs(real);
    const records = readWrittenRecords(state, link);
    expect(records).toHaveLength(1);
    expect(isOwnFile(records, 'checkpoint', join(link, 'cp', 's1', 'cx-001-checkpoint.json'), text)).toBe(true);
  });

  it('a committed symlink named like a checkpoint, pointing at a file we recorded, is not ours: the name is never followed', () => {
    const { path, text } = writeOurs(real);
    const planted = join(real, 'cp', 's1', 'cx-002-checkpoint.json');
    symlinkSync(path, planted);
    expect(readFileSync(planted, 'utf8')).toBe(text); // the same bytes, through the link
    const records = readWrittenRecords(state, real);
    expect(canonicalPath(planted)).toBe(planted);
    expect(isOwnFile(records, 'checkpoint', planted, text)).toBe(false);
  });

  it('a path whose folder does not exist keys by path.resolve', () => {
    expect(canonicalPath(join(root, 'missing', '..', 'gone', 'cx-001-checkpoint.json'))).toBe(join(root, 'gone', 'cx-001-checkpoint.json'));
  });
});

describe("a project's records key (the monitor keeps it in its mark instead of hashing the folder every prompt)", () => {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

  it('is the SHA-256 of the real folder, one for the symlinked path and the real one', () => {
    expect(recordsKey(link)).toEqual({ dir: real, key: sha(real) });
    expect(recordsKey(real)).toEqual({ dir: real, key: sha(real) });
  });

  it('a remembered key is used for its own folder only, and only in the form a digest has', () => {
    const other = join(root, 'other');
    mkdirSync(other);
    rememberRecordsKey({ dir: real, key: 'ab'.repeat(16) });
    expect(recordsKey(link)).toEqual({ dir: real, key: 'ab'.repeat(16) });
    expect(recordsKey(other).key).toBe(sha(other));
    for (const key of ['../../etc/passwd', 'AB'.repeat(16), 'ab'.repeat(15), `${'ab'.repeat(16)}\n`, '']) {
      const dir = join(root, `p-${sha(key).slice(0, 6)}`);
      mkdirSync(dir);
      rememberRecordsKey({ dir, key });
      expect(recordsKey(dir).key).toBe(sha(dir));
    }
  });

  it('one hashed in this process stands against a remembered one', () => {
    const hashed = recordsKey(real).key;
    rememberRecordsKey({ dir: real, key: 'cd'.repeat(16) });
    expect(recordsKey(real).key).toBe(hashed);
  });
});

describe('findNotOurs: checkpoint files in the tree that are not ours', () => {
  it('a committed one, one of ours rewritten since, and a link named like a checkpoint; ours and other names are left out', () => {
    const dir = join(real, '.claude', 'context-ceiling', 'checkpoints', 's1');
    mkdirSync(dir, { recursive: true });
    const ours = (name: string) => {
      const path = join(dir, name);
      writeFileSync(path, `{"id":"${name}"}\n`);
      recordWritten(state, real, { kind: 'checkpoint', path, session: 's1', sequence: 1, digest: digestOf(readFileSync(path)) });
      return path;
    };
    ours('cx-001-checkpoint.json');
    const rewritten = ours('cx-002-checkpoint.json');
    writeFileSync(rewritten, '{"id":"changed"}\n');
    const committed = join(dir, 'cx-003-checkpoint.json');
    writeFileSync(committed, '{}');
    const link = join(dir, 'cx-004-checkpoint.json');
    symlinkSync(join(dir, 'cx-001-checkpoint.json'), link);
    writeFileSync(join(dir, 'notes.txt'), 'not a checkpoint name');
    const found = findNotOurs(real, readWrittenRecords(state, real));
    expect(found.more).toBe(false);
    expect(found.paths.sort()).toEqual([rewritten, committed, link].sort());
    expect(findNotOurs(join(root, 'nowhere'), [])).toEqual({ paths: [], more: false }); // no checkpoint folder there
  });

  it('a repository that commits thousands of them: looked at no further than the budget, and says there are more', () => {
    const dir = join(real, '.claude', 'context-ceiling', 'checkpoints', 'committed');
    mkdirSync(dir, { recursive: true });
    for (let n = 1; n <= 5000; n++) closeSync(openSync(join(dir, `cx-${String(n).padStart(4, '0')}-checkpoint.json`), 'w'));
    const found = findNotOurs(real, []);
    expect(found.more).toBe(true);
    // 4,096 entries in all: the session folder, then 4,095 of its files.
    expect(found.paths).toHaveLength(4095);
    expect(new Set(found.paths).size).toBe(4095);
  });

  it('a file last found ours is taken as ours unread only while its size, change time, inode and recorded digest all still hold', () => {
    const dir = join(real, '.claude', 'context-ceiling', 'checkpoints', 's1');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'cx-001-checkpoint.json');
    writeFileSync(path, '{"id":"cx-001"}\n');
    recordWritten(state, real, { kind: 'checkpoint', path, session: 's1', sequence: 1, digest: digestOf(readFileSync(path)) });
    const records = readWrittenRecords(state, real);
    const first = { before: new Map<string, string>(), after: new Map<string, string>() };
    expect(findNotOurs(real, records, undefined, first).paths).toEqual([]);
    const stamp = first.after.get(path) as string;
    const { size, ctimeMs, ino } = lstatSync(path);
    expect(stamp).toBe(`${size} ${ctimeMs} ${ino} ${digestOf(readFileSync(path))}`);

    // The same stamp with a digest no record holds is not trusted: the bytes are read and hashed again.
    const forged = { before: new Map([[path, `${size} ${ctimeMs} ${ino} ${'f'.repeat(64)}`]]), after: new Map<string, string>() };
    expect(findNotOurs(real, records, undefined, forged).paths).toEqual([]);
    expect(forged.after.get(path)).toBe(stamp);

    // Rewritten since (same size): the change time moved, so the stamp no longer holds and the new bytes are not ours.
    // (Rewritten until the change time moves: file times tick at the kernel's clock, a few milliseconds apart.)
    do writeFileSync(path, '{"id":"cx-009"}\n');
    while (lstatSync(path).ctimeMs === ctimeMs);
    const after = { before: first.after, after: new Map<string, string>() };
    expect(findNotOurs(real, records, undefined, after).paths).toEqual([path]);
    expect(after.after.size).toBe(0);
  });

  it('checks the first 64 recorded files a scan meets; past them a recorded path counts as ours unread', () => {
    const checkpoints = join(real, '.claude', 'context-ceiling', 'checkpoints');
    const paths: string[] = [];
    for (let n = 0; n < 66; n++) {
      const dir = join(checkpoints, `s${n}`);
      mkdirSync(dir, { recursive: true });
      const path = join(dir, 'cx-001-checkpoint.json');
      writeFileSync(path, `{"id":"s${n}"}\n`);
      recordWritten(state, real, { kind: 'checkpoint', path, session: `s${n}`, sequence: 1, digest: digestOf(readFileSync(path)) });
      paths.push(path);
    }
    const records = readWrittenRecords(state, real);
    for (const path of paths) writeFileSync(path, '{"id":"rewritten since"}\n');
    const verified = { before: new Map<string, string>(), after: new Map<string, string>() };
    const found = findNotOurs(real, records, undefined, verified);
    // Every one was rewritten: the 64 checked are found not ours, the two met after them pass by their path.
    expect(found.more).toBe(false);
    expect(found.paths).toHaveLength(64);
    expect(paths.filter((path) => !found.paths.includes(path))).toHaveLength(2);
    expect(verified.after.size).toBe(0);
  });
});

describe("one session's records (the monitor's every prompt reads only its own)", () => {
  it('are exactly the records of that session among many, whatever else a line holds', () => {
    // Found in the file's bytes: a name of several bytes a character (here and in the paths) must not shift a line.
    const sessions = ['s1', 's2', 's1-x', 'x-s1', 'sé'];
    for (let i = 0; i < 40; i++) {
      const session = sessions[i % sessions.length]!;
      // A path that quotes another session's field must not make its record count for that session.
      const path = join(real, 'cp', `${session}-ü`, `cx-${String(i + 1).padStart(3, '0')}-checkpoint "session":"s1".json`);
      recordWritten(state, real, {
        kind: i % 5 === 0 ? 'summary' : 'checkpoint',
        path,
        session,
        sequence: i + 1,
        digest: digestOf(String(i)),
      });
    }
    const all = readWrittenRecords(state, real);
    expect(all).toHaveLength(40);
    for (const session of [...sessions, 'none'])
      expect(readWrittenRecords(state, real, session)).toEqual(all.filter((record) => record.session === session));
    expect(readWrittenRecords(state, real, 's1')).toHaveLength(8);
    expect(readWrittenRecords(state, real, 'sé').map((record) => record.sequence)).toEqual([5, 10, 15, 20, 25, 30, 35, 40]);
  });
});

describe("a checkpoint's trigger and time, kept in its record", () => {
  it('are read back with the record; older records without them, or with values not ours, are records all the same', () => {
    const path = join(real, 'cp', 's1', 'cx-001-checkpoint.json');
    writeFileSync(path, '{}\n');
    const base = { kind: 'checkpoint' as const, path, session: 's1', digest: digestOf('{}\n') };
    recordWritten(state, real, { ...base, sequence: 1, fact: { trigger: 'auto', timestamp: '2026-11-29T00:00:00.000Z' } });
    recordWritten(state, real, { ...base, sequence: 2 });
    // Lines no writer of ours makes: a trigger longer than any, a fact without a time.
    const file = join(state, 'checkpoints', `${recordsKey(real).key}.jsonl`);
    const foreign = [
      { ...base, path: canonicalPath(path), sequence: 3, fact: { trigger: 'x'.repeat(65), timestamp: 'now' } },
      { ...base, path: canonicalPath(path), sequence: 4, fact: { trigger: 7 } },
    ];
    writeFileSync(file, `${readFileSync(file, 'utf8')}${foreign.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const records = readWrittenRecords(state, real);
    expect(records.map((r) => [r.sequence, r.fact])).toEqual([
      [1, { trigger: 'auto', timestamp: '2026-11-29T00:00:00.000Z' }],
      [2, undefined],
      [3, undefined],
      [4, undefined],
    ]);
  });
});
