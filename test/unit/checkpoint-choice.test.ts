/** Which checkpoint is shown and which are acknowledged with it, as tables. */
import { describe, expect, it } from 'vitest';
import { chooseCompactionAlert, chooseNewest, compactionPosition, isCompaction, supersededBy } from '../../src/core/checkpoint-choice.js';

const p = (sequence: number, trigger: string | undefined) => ({ sequence, trigger });

describe('chooseCompactionAlert', () => {
  it.each([
    ['nothing pending', [], undefined],
    ['the newest compaction', [p(1, 'auto'), p(2, 'manual')], 2],
    ['a recovery-skill save is no compaction', [p(1, 'auto'), p(2, 'skill')], 1],
    ['only skill saves: no alert', [p(1, 'skill')], undefined],
    ['a corrupt checkpoint still alerts', [p(1, 'auto'), p(2, undefined)], 2],
  ])('%s', (_name, pending, expected) => {
    expect(chooseCompactionAlert(pending)?.sequence).toBe(expected);
  });
});

describe('chooseNewest', () => {
  it.each([
    ['none', [], undefined],
    [
      'the latest mtime wins',
      [
        { id: 'a', mtime: 5 },
        { id: 'b', mtime: 9 },
        { id: 'c', mtime: 7 },
      ],
      'b',
    ],
    [
      'on a tie, the one listed later',
      [
        { id: 'a', mtime: 5 },
        { id: 'b', mtime: 5 },
      ],
      'b',
    ],
  ])('%s', (_name, candidates, expected) => {
    expect(chooseNewest(candidates)?.id).toBe(expected);
  });
});

describe('supersededBy', () => {
  const e = (sequence: number, acknowledged = false) => ({ sequence, acknowledged });
  const entries = [e(1), e(2, true), e(3), e(4), e(5)];
  const shown = entries[3]!;
  it('every unacknowledged entry but the one shown', () => {
    expect(supersededBy(entries, shown).map((x) => x.sequence)).toEqual([1, 3, 5]);
  });
  it('olderOnly: a session keeps its later checkpoints pending', () => {
    expect(supersededBy(entries, shown, true).map((x) => x.sequence)).toEqual([1, 3]);
  });
});

describe('compactionPosition: "COMPACTION EVENT k of n" counts compactions, never the recovery skill’s saves', () => {
  const facts = (...triggers: Array<string | undefined>) => triggers.map((trigger, i) => ({ sequence: i + 1, trigger }));

  it.each([
    ['the skill saved twice, then one /compact', facts('skill', 'skill', 'manual'), 3, { number: 1, count: 1 }],
    ['two compactions with a save between', facts('manual', 'skill', 'auto'), 3, { number: 2, count: 2 }],
    ['the first of two', facts('auto', 'auto'), 1, { number: 1, count: 2 }],
    ['a corrupt checkpoint counts (PreCompact wrote it)', facts(undefined, 'manual'), 2, { number: 2, count: 2 }],
  ])('%s', (_name, list, shown, expected) => {
    expect(compactionPosition(list, shown)).toEqual(expected);
  });

  it('isCompaction', () => {
    expect(isCompaction({ trigger: 'skill' })).toBe(false);
    expect(isCompaction({ trigger: 'manual' })).toBe(true);
  });
});
