/** What `checkpoints clean` may remove from a session folder: our names only, each checkpoint's files together. */
import { describe, expect, it } from 'vitest';
import { ourFile, planSessionClean, STALE_TEMP_MS, type FolderFile } from '../../src/core/checkpoint-clean.js';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const DAY = 86_400_000;
const file = (name: string, ageMs = 0, extra: Partial<FolderFile> = {}): FolderFile => ({
  name,
  regular: true,
  mine: true,
  mtimeMs: NOW - ageMs,
  ...extra,
});

describe('our files, by name', () => {
  it.each([
    ['cx-001-checkpoint.json', { kind: 'checkpoint', sequence: 1 }],
    ['cx-1000-checkpoint.json', { kind: 'checkpoint', sequence: 1000 }],
    ['cx-001-checkpoint.acknowledged', { kind: 'marker', sequence: 1 }],
    ['cx-001-checkpoint.json.acknowledged', { kind: 'marker', sequence: 1 }],
    ['cx-001-summary.json', { kind: 'summary', sequence: 1 }],
    ['cx-001-summary.acknowledged', { kind: 'marker', sequence: 1 }],
    ['.cx-4242-lq2x0abc12.tmp', { kind: 'temp', sequence: undefined }],
    ['.cx-001-summary.json.4242.lq2x0abc12.tmp', { kind: 'temp', sequence: undefined }],
  ])('%s is ours', (name, expected) => {
    expect(ourFile(name)).toEqual(expected);
  });

  it.each([
    '.gitignore',
    'notes.md',
    'cx-01-checkpoint.json',
    'cx-001-checkpoint.json.bak',
    'cx-001-checkpoint.json.tmp',
    '.cx-.tmp',
    'CX-001-checkpoint.json',
  ])('%s is not', (name) => {
    expect(ourFile(name)).toBeUndefined();
  });
});

describe('the plan for one session folder', () => {
  const everything = { cutoff: undefined, now: NOW, writtenAt: () => undefined };

  it('a checkpoint goes with its markers and kept summary; other names are not even considered', () => {
    const files = ['cx-001-checkpoint.json', 'cx-001-checkpoint.acknowledged', 'cx-001-summary.json', 'notes.md'].map((name) => file(name));
    expect(planSessionClean(files, everything)).toEqual({
      remove: [
        { sequence: 1, names: ['cx-001-checkpoint.acknowledged', 'cx-001-checkpoint.json', 'cx-001-summary.json'], hasCheckpoint: true },
      ],
      leftAlone: [],
    });
  });

  it('one foreign member (a link, another uid) keeps the whole checkpoint, and says which', () => {
    const files = [
      file('cx-001-checkpoint.json', 0, { regular: false }),
      file('cx-001-checkpoint.acknowledged'),
      file('cx-002-summary.json', 0, { mine: false }),
    ];
    expect(planSessionClean(files, everything)).toEqual({
      remove: [],
      leftAlone: [
        { name: 'cx-001-checkpoint.json', why: 'not-a-file' },
        { name: 'cx-002-summary.json', why: 'not-mine' },
      ],
    });
  });

  it('by age: the checkpoint’s own time decides, its file time only without one; markers alone by their own', () => {
    const written: Record<number, number> = { 1: NOW - 10 * DAY, 2: NOW - DAY };
    const files = [
      file('cx-001-checkpoint.json'),
      file('cx-002-checkpoint.json', 30 * DAY),
      file('cx-003-checkpoint.json', 8 * DAY),
      file('cx-004-summary.json', 9 * DAY),
    ];
    const plan = planSessionClean(files, { cutoff: NOW - 7 * DAY, now: NOW, writtenAt: (sequence) => written[sequence] });
    expect(plan.remove.map((group) => group.sequence)).toEqual([1, 3, 4]);
    expect(plan.remove.map((group) => group.hasCheckpoint)).toEqual([true, true, false]);
  });

  it('an unfinished write goes only once stale, and by age only when older than the cutoff too', () => {
    const temps = [file('.cx-1-a.tmp', STALE_TEMP_MS - 1000), file('.cx-2-b.tmp', STALE_TEMP_MS + 1000), file('.cx-3-c.tmp', 3 * DAY)];
    expect(planSessionClean(temps, everything).remove.map((group) => group.names)).toEqual([['.cx-2-b.tmp'], ['.cx-3-c.tmp']]);
    const byAge = planSessionClean(temps, { ...everything, cutoff: NOW - 2 * DAY });
    expect(byAge.remove.map((group) => group.names)).toEqual([['.cx-3-c.tmp']]);
  });
});
