/** How many threads replay reads with: as asked, else the idle CPUs once there is enough to read. */
import { describe, expect, it } from 'vitest';
import { chooseJobs } from '../../src/cli/replay-files.js';

const MiB = 1024 * 1024;

describe('chooseJobs', () => {
  it.each([
    // requested, files, bytes, cpus, load → threads
    [3, 10, 1, 2, 9, 3], // asked for: given, whatever the machine
    [8, 2, 1, 2, 0, 2], // never more threads than files
    [undefined, 1, 900 * MiB, 8, 0, 1], // one file: one thread
    [undefined, 40, 10 * MiB, 8, 0, 1], // little to read: start-up would cost more than it saves
    [undefined, 40, 400 * MiB, 2, 0.1, 2], // an idle two-CPU machine: both
    [undefined, 40, 400 * MiB, 2, 0.6, 2],
    [undefined, 40, 400 * MiB, 2, 1.0, 1], // one CPU busy elsewhere: this thread alone
    [undefined, 40, 400 * MiB, 2, 14, 1], // an overloaded machine
    [undefined, 40, 400 * MiB, 16, 0, 4], // at most four
    [undefined, 3, 400 * MiB, 16, 0, 3],
  ])('requested %s, %i files, %i bytes, %i CPUs at load %d → %i', (requested, files, bytes, cpus, load, threads) => {
    expect(chooseJobs(requested, files, bytes, { cpus, load })).toBe(threads);
  });
});
