/** How many threads replay reads with: as asked, else one per two idle CPUs once there is enough to read. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { busyElsewhere, chooseJobs } from '../../src/cli/replay-files.js';

const MiB = 1024 * 1024;

describe('chooseJobs', () => {
  it.each([
    // requested, files, bytes, cpus, load → threads
    [3, 10, 1, 2, 9, 3], // asked for: given, whatever the machine
    [8, 2, 1, 2, 0, 2], // never more threads than files
    [undefined, 1, 900 * MiB, 8, 0, 1], // one file: one thread
    [undefined, 40, 10 * MiB, 8, 0, 1], // little to read: start-up would cost more than it saves
    [undefined, 40, 10 * MiB, 2, 0, 1], // 10 MiB: a worker's start-up would cost more than its share saves
    [undefined, 5, 50 * MiB, 2, 0, 1],
    [undefined, 12, 127 * MiB, 2, 0, 1],
    [undefined, 13, 128 * MiB, 2, 0, 1], // an idle two-CPU machine: one thread, whose runtime and kernel keep the other CPU busy
    [undefined, 40, 400 * MiB, 2, 0, 1], // the bench's corpus on the bench's host
    [undefined, 40, 2048 * MiB, 2, 0.1, 1],
    [undefined, 13, 128 * MiB, 4, 0, 2], // from 128 MiB, one thread per two idle CPUs
    [undefined, 12, 127 * MiB, 4, 0, 1],
    [undefined, 40, 2048 * MiB, 4, 0.1, 2],
    [undefined, 40, 2048 * MiB, 4, 1, 1], // one of four CPUs busy elsewhere: three idle, one thread
    [undefined, 40, 2048 * MiB, 6, 0, 3],
    [undefined, 40, 2048 * MiB, 8, 2, 3],
    [undefined, 40, 2048 * MiB, 2, 14, 1], // an overloaded machine
    [undefined, 40, 2048 * MiB, 16, 0, 4], // at most four
    [undefined, 3, 2048 * MiB, 16, 0, 3], // never more threads than files
  ])('requested %s, %i files, %i bytes, %i CPUs at load %d → %i', (requested, files, bytes, cpus, load, threads) => {
    expect(chooseJobs(requested, files, bytes, { cpus, load })).toBe(threads);
  });
});

describe('busyElsewhere', () => {
  const loadavgFile = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'loadavg-')), 'loadavg');
    writeFileSync(path, text);
    return path;
  };

  it('counts the runnable tasks besides this one, not the one-minute average a previous run left behind', () => {
    expect(busyElsewhere(loadavgFile('1.04 0.90 0.50 1/312 4242\n'))).toBe(0);
    expect(busyElsewhere(loadavgFile('0.10 0.20 0.30 3/312 4242\n'))).toBe(2);
  });

  it('without /proc it falls back to the load average (a number, never NaN)', () => {
    expect(Number.isFinite(busyElsewhere('/nonexistent/loadavg'))).toBe(true);
  });
});
