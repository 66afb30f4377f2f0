/** Dedup's epochs as a table: what the file size alone decides, what a search decides, when epoch.json is written. */
import { describe, expect, it } from 'vitest';
import { epochAfterScan, planEpoch, shouldWriteEpoch, type DedupEpoch } from '../../src/core/dedup.js';

const at = (epoch: string, scannedTo: number): DedupEpoch => ({ epoch, scannedTo });

describe('planEpoch', () => {
  it.each([
    ['first sight starts e0 at the file size', undefined, 500, { kind: 'decided', next: at('e0', 500) }],
    ['a shorter file was replaced: a new epoch named by its size', at('c10', 900), 300, { kind: 'decided', next: at('r300', 300) }],
    ['no growth keeps the epoch', at('c10', 900), 900, { kind: 'decided', next: at('c10', 900) }],
    ['growth is searched from where the last search stopped', at('e0', 900), 1500, { kind: 'scan', scanFrom: 900 }],
  ])('%s', (_name, prior, fileSize, expected) => {
    expect(planEpoch(prior, fileSize)).toEqual(expected);
  });
});

describe('epochAfterScan', () => {
  it.each([
    ['a compaction found starts c<offset>', at('e0', 900), { offset: 1200, fileSize: 1500 }, at('c1200', 1500)],
    ['none found keeps the epoch and moves the search point', at('c10', 900), { fileSize: 1500 }, at('c10', 1500)],
  ])('%s', (_name, prior, found, expected) => {
    expect(epochAfterScan(prior, found)).toEqual(expected);
  });
});

describe('shouldWriteEpoch', () => {
  it.each([
    ['nothing on disk yet', undefined, at('e0', 0), true],
    ['a new epoch', at('e0', 0), at('c5', 10), true],
    ['the same epoch, a little further', at('e0', 0), at('e0', 1024 * 1024), false],
    ['the same epoch, more than 1 MiB further', at('e0', 0), at('e0', 1024 * 1024 + 1), true],
  ])('%s → %s', (_name, prior, next, expected) => {
    expect(shouldWriteEpoch(prior, next)).toBe(expected);
  });
});
