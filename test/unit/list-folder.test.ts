import { closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFolder } from '../../src/io/read-safe.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'list-folder-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const names = (listing: ReturnType<typeof listFolder>) => listing?.entries.map((entry) => entry.name).sort();

describe('listFolder: a folder of the checkpoint tree, bounded', () => {
  it('a folder of usual size: every entry, with its type', () => {
    const dir = join(root, 'session');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'cx-001-checkpoint.json'), '{}');
    symlinkSync(join(dir, 'cx-001-checkpoint.json'), join(dir, 'cx-002-checkpoint.json'));
    const listing = listFolder(dir, 10);
    expect(listing?.more).toBe(false);
    expect(names(listing)).toEqual(['cx-001-checkpoint.json', 'cx-002-checkpoint.json', 'sub']);
    const kind = new Map(
      listing?.entries.map((entry) => [entry.name, entry.isFile() ? 'file' : entry.isSymbolicLink() ? 'link' : 'folder']),
    );
    expect(Object.fromEntries(kind)).toEqual({ 'cx-001-checkpoint.json': 'file', 'cx-002-checkpoint.json': 'link', sub: 'folder' });
    // Fewer asked for than it holds: as many as asked, and it says there are more.
    expect(listFolder(dir, 2)).toMatchObject({ more: true, entries: { length: 2 } });
  });

  it('no folder there, a link to one, or a file: nothing (a link is never followed)', () => {
    const dir = join(root, 'real');
    mkdirSync(dir);
    writeFileSync(join(dir, 'cx-001-checkpoint.json'), '{}');
    symlinkSync(dir, join(root, 'link'));
    expect(listFolder(join(root, 'missing'), 10)).toBeUndefined();
    expect(listFolder(join(root, 'link'), 10)).toBeUndefined();
    expect(listFolder(join(dir, 'cx-001-checkpoint.json'), 10)).toBeUndefined();
  });

  it('a folder larger than one call should read (a repository can commit thousands of files): read no further than asked', () => {
    const dir = join(root, 'flood');
    mkdirSync(dir);
    for (let n = 1; n <= 5000; n++)
      closeSync(openSync(join(dir, `cx-${String(n).padStart(6, '0')}-checkpoint.json-with-a-long-name`), 'w'));
    // Large by its own size on this filesystem: the batched read, not one readdir of everything.
    expect(lstatSync(dir).size).toBeGreaterThan(64 * 1024);
    const some = listFolder(dir, 100);
    expect(some).toMatchObject({ more: true, entries: { length: 100 } });
    expect(new Set(names(some)).size).toBe(100);
    const all = listFolder(dir, 10_000);
    expect(all?.more).toBe(false);
    expect(all?.entries).toHaveLength(5000);
  });
});
