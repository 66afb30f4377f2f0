/** The Bun floor: under an older Bun (or one whose version cannot be read) the launcher hands the run to Node. */
import { describe, expect, it } from 'vitest';
import { BUN_FLOOR, bunTooOld } from '../../src/core/bun-floor.js';

describe('bunTooOld', () => {
  it('the floor itself and every newer release or canary run the hooks', () => {
    expect(bunTooOld(BUN_FLOOR)).toBe(false);
    const [major, minor, patch] = BUN_FLOOR.split('.').map(Number) as [number, number, number];
    for (const newer of [
      `${major}.${minor}.${patch + 1}`,
      `${major}.${minor + 1}.0`,
      `${major + 1}.0.0`,
      `${major}.${minor}.${patch + 1}-canary.3`,
    ])
      expect(bunTooOld(newer), newer).toBe(false);
  });

  it('every older release hands the run to Node, compared as numbers, not text', () => {
    const [major, minor, patch] = BUN_FLOOR.split('.').map(Number) as [number, number, number];
    const older = [
      `${major - 1}.9.99`,
      ...(minor > 0 ? [`${major}.${minor - 1}.99`] : []),
      ...(patch > 0 ? [`${major}.${minor}.${patch - 1}`] : []),
    ];
    for (const version of older) expect(bunTooOld(version), version).toBe(true);
    expect(bunTooOld('1.1.0')).toBe(true);
    expect(bunTooOld('1.10.0')).toBe(false); // "1.10" is newer than "1.4", though it sorts before it as text
  });

  it('a version it cannot read is treated as too old: Node runs the hook', () => {
    for (const unreadable of ['', '1', '1.4', 'x.y.z', '1.4.x', ' 1.4.4'])
      expect(bunTooOld(unreadable), JSON.stringify(unreadable)).toBe(true);
  });
});
