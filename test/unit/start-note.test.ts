/**
 * The rules of SessionStart's note (checkpoints/start-note.ts) that a black-box run cannot set up on demand: a
 * folder changed within two seconds of the look, a folder listed in part, stamps that are not stamps.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { beginStartLook, keepStartNote, startNoteHolds, startNotePlace } from '../../src/checkpoints/start-note.js';
import { folderListings } from '../../src/checkpoints/store.js';

let root: string;
let config: { stateDir: string; projectDir: string };
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cc-start-note-'));
  config = { stateDir: join(root, 'state'), projectDir: join(root, 'project') };
  mkdirSync(join(config.stateDir, 'checkpoints'), { recursive: true, mode: 0o700 });
  mkdirSync(join(config.projectDir, '.claude', 'context-ceiling', 'checkpoints', 'one'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const session = 'one';
const folder = () => join(config.projectDir, '.claude', 'context-ceiling', 'checkpoints', 'one');

/** A start's look at the session folder, as if it began `later` ms after now (its folders then look older). */
function look(later = 0) {
  const place = startNotePlace(config);
  const taken = beginStartLook(config, place);
  folderListings(taken.listed)(folder());
  return { place, look: { ...taken, at: taken.at + later } };
}

const notes = () => readdirSync(join(config.stateDir, 'checkpoints')).filter((name) => name.endsWith('.start'));

describe('keepStartNote', () => {
  it('keeps nothing while a folder it looked at changed within two seconds of the look; past that, a note the next start takes', () => {
    const now = look();
    expect(keepStartNote(config, now.place, now.look, [], 'new', undefined)).toMatch(/ changed just now$/);
    expect(notes()).toEqual([]);
    const settled = look(2_500);
    expect(keepStartNote(config, settled.place, settled.look, [], 'new', undefined)).toBeUndefined();
    expect(notes()).toHaveLength(1);
    expect(startNoteHolds(config, startNotePlace(config), 'another')).toBe(0);
    writeFileSync(join(folder(), 'cx-001-checkpoint.json'), '{}');
    expect(startNoteHolds(config, startNotePlace(config), 'another')).toBeUndefined();
  });

  it('keeps nothing for a session with records, a notice told now, a scan cut short or a folder listed in part', () => {
    const { place, look: taken } = look(2_500);
    const record = { kind: 'checkpoint' as const, path: join(folder(), 'cx-001-checkpoint.json'), session, sequence: 1, digest: 'd' };
    expect(keepStartNote(config, place, taken, [record], session, undefined)).toBe('the session has records');
    expect(keepStartNote(config, place, taken, [], 'new', { count: 1, more: false, notice: 'told' })).toBe('a notice told now');
    expect(keepStartNote(config, place, taken, [], 'new', { count: 1, more: true, notice: undefined })).toBe('the look stopped early');
    const listing = taken.listed.get(folder());
    taken.listed.set(folder(), listing && { ...listing, more: true });
    expect(keepStartNote(config, place, taken, [], 'new', undefined)).toMatch(/ was listed in part$/);
    expect(notes()).toEqual([]);
  });

  it('keeps nothing where a level of the checkpoint folder is a link, or a folder it asked for is one', () => {
    const real = join(root, 'elsewhere');
    mkdirSync(real);
    symlinkSync(real, join(config.projectDir, '.claude', 'context-ceiling', 'checkpoints', 'two'));
    const { place, look: taken } = look(2_500);
    folderListings(taken.listed)(join(config.projectDir, '.claude', 'context-ceiling', 'checkpoints', 'two'));
    expect(keepStartNote(config, place, taken, [], 'new', undefined)).toMatch(/two was not listed$/);
    rmSync(join(config.projectDir, '.claude'), { recursive: true });
    mkdirSync(join(root, 'copy', 'context-ceiling', 'checkpoints', 'one'), { recursive: true });
    symlinkSync(join(root, 'copy'), join(config.projectDir, '.claude'));
    const linked = look(2_500);
    expect(keepStartNote(config, linked.place, linked.look, [], 'new', undefined)).toMatch(/\.claude is a link$/);
    expect(notes()).toEqual([]);
  });
});

describe('startNoteHolds', () => {
  it('takes no note whose stamps are not stamps, or which names the session starting', () => {
    const { place, look: taken } = look(2_500);
    expect(keepStartNote(config, place, taken, [], 'new', undefined)).toBeUndefined();
    const [name] = notes();
    const path = join(config.stateDir, 'checkpoints', name!);
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    const note = JSON.parse(readFileSync(path, 'utf8'));
    expect(startNoteHolds(config, place, 'another')).toBe(0);
    const variants = [
      { ...note, folders: Object.fromEntries(Object.keys(note.folders).map((key) => [key, String(note.folders[key])])) },
      { ...note, folders: Object.fromEntries(Object.keys(note.folders).map((key) => [key, [...note.folders[key], 0]])) },
      { ...note, records: [1, 2, 3] },
      { ...note, found: -1 },
      { ...note, sessions: `${note.sessions}another\n` },
    ];
    for (const variant of variants) {
      writeFileSync(path, JSON.stringify(variant));
      expect(startNoteHolds(config, place, 'another'), JSON.stringify(variant).slice(0, 80)).toBeUndefined();
    }
    writeFileSync(path, JSON.stringify(note));
    expect(startNoteHolds(config, place, 'another')).toBe(0);
  });
});
