import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStatusInput, renderStatusLine, statusZone, visibleLength, ZONE_COLOURS } from '../../src/core/statusline.js';
import { EACH_CLIENT, REAL_CLIENTS } from '../helpers/real-clients.js';

const fixture = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8'));

describe.each(EACH_CLIENT)('status line input (recorded from Claude Code %s)', (version, { dir, statusAfterTurn }) => {
  it('after a turn: window, usage (prompt side of current_usage), model', () => {
    expect(parseStatusInput(fixture(dir, 'statusline-after-turn.json'))).toEqual({
      sessionId: statusAfterTurn.sessionId,
      transcriptPath: `/home/dev/.claude/projects/-home-dev-project/${statusAfterTurn.sessionId}.jsonl`,
      modelId: 'claude-opus-5-5',
      version,
      windowTokens: 1_000_000,
      usageTokens: statusAfterTurn.usageTokens,
    });
  });

  it('before the first turn: the window is known, the usage is not', () => {
    expect(parseStatusInput(fixture(dir, 'statusline-before-first-turn.json'))).toMatchObject({
      windowTokens: 1_000_000,
      usageTokens: undefined,
    });
  });
});

// 2.1.328 sent all-zero current_usage right after /compact; 2.1.331 and 2.1.332 send null, as before a first turn.
const NULL_AFTER_COMPACT = REAL_CLIENTS.filter((client) => client.version !== '2.1.328').map((client) => [client.version, client] as const);

describe.each(NULL_AFTER_COMPACT)('status line input around /compact (recorded from Claude Code %s)', (_version, { dir }) => {
  // The window stays known.
  it('right after /compact: the window is known, the usage is not (current_usage null), never a zero reading', () => {
    expect(parseStatusInput(fixture(dir, 'statusline-after-compact.json'))).toMatchObject({
      windowTokens: 1_000_000,
      usageTokens: undefined,
    });
  });

  it('after the next turn: the usage again', () => {
    expect(parseStatusInput(fixture(dir, 'statusline-after-next-turn.json'))).toMatchObject({
      windowTokens: 1_000_000,
      usageTokens: 3_005,
    });
  });
});

describe('status line input', () => {
  it.each([null, [], 'x', {}, { session_id: '' }, { session_id: 5 }])('%j is not a status line input', (value) => {
    expect(parseStatusInput(value)).toBeUndefined();
  });

  it('absurd or missing window sizes are ignored', () => {
    expect(parseStatusInput({ session_id: 's', context_window: { context_window_size: -1 } })?.windowTokens).toBeUndefined();
    expect(parseStatusInput({ session_id: 's', context_window: { context_window_size: '1000000' } })?.windowTokens).toBeUndefined();
    expect(parseStatusInput({ session_id: 's' })).toMatchObject({ windowTokens: undefined, usageTokens: undefined });
  });

  it('an all-zero current_usage (2.1.328, right after /compact) is no reading', () => {
    const zero = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    expect(parseStatusInput({ session_id: 's', context_window: { current_usage: zero } })?.usageTokens).toBeUndefined();
  });
});

describe('renderStatusLine', () => {
  const base = { window: 1_000_000, ceilingPct: 40, compactAt: 967_000, colour: false } as const;

  it.each([
    [{ usage: 121_005 }, 'ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling'],
    [{ usage: 450_000 }, 'ctx 45% ▕████│█░░░░░▏ 450,000/1,000,000 · over the 40% ceiling · 517,000 to compaction'],
    [{ usage: 960_000 }, 'ctx 96% ▕████│██████▏ 960,000/1,000,000 · over the 40% ceiling · 7,000 to compaction'],
    [{ usage: 970_000 }, 'ctx 97% ▕████│██████▏ 970,000/1,000,000 · over the 40% ceiling · compaction due'],
    [
      { usage: 18_912, from: 'compaction' as const },
      'ctx 1% ▕░░░░│░░░░░░▏ 18,912/1,000,000 · since compaction · 381,088 to the 40% ceiling',
    ],
    [{ usage: undefined }, 'ctx –/1,000,000 no turn yet · ceiling 40%'],
    [{ usage: undefined, noReading: { why: 'compacted' as const } }, 'ctx –/1,000,000 compacted, no turn since · ceiling 40%'],
    [
      { usage: undefined, noReading: { why: 'scan-cap' as const, within: 64 * 1024 * 1024 } },
      'ctx –/1,000,000 not measured: no turn in the last 64.0 MiB · ceiling 40%',
    ],
    [{ usage: 1_200_000 }, 'ctx 1,200,000/1,000,000 over the window: state the real one'],
    [
      { usage: 90_000, window: 200_000, compactAt: 167_000 },
      'ctx 45% ▕████│█░░░░░▏ 90,000/200,000 · over the 40% ceiling · 77,000 to compaction',
    ],
  ])('%j', (facts, line) => {
    expect(renderStatusLine({ ...base, ...facts })).toBe(line);
  });

  it('never shows a zero reading or "no turn yet" for a compacted session: it says what it knows', () => {
    expect(renderStatusLine({ ...base, usage: 18_912, from: 'compaction' })).not.toMatch(/no turn yet|^ctx 0%/);
  });

  it('a transcript read to its cap without a turn is "not measured", in the short form too', () => {
    const facts = { ...base, usage: undefined, noReading: { why: 'scan-cap' as const, within: 65_536 } };
    expect(renderStatusLine(facts)).toBe('ctx –/1,000,000 not measured: no turn in the last 64.0 KiB · ceiling 40%');
    expect(renderStatusLine({ ...facts, columns: 30 })).toBe('ctx – not measured');
  });

  it('marks the ceiling where it falls on the bar', () => {
    expect(renderStatusLine({ ...base, ceilingPct: 70, usage: 100_000 })).toContain('▕█░░░░░░│░░░▏');
    expect(renderStatusLine({ ...base, ceilingPct: 100, usage: 100_000 })).toContain('▕█░░░░░░░░░│▏');
  });

  it.each([
    [100_000, 'clear', '32'],
    [320_000, 'near', '33'],
    [400_000, 'over', '31'],
    [930_000, 'compacting', '1;97;41'],
    [undefined, 'unknown', '2'],
  ])('%s tokens are %s, coloured \\e[%sm; never a calm colour over the ceiling', (usage, zone, code) => {
    expect(statusZone({ ...base, usage })).toBe(zone);
    expect(renderStatusLine({ ...base, usage, colour: true })).toContain(`\u001b[${code}m`);
  });

  it('every zone over the ceiling is painted in a colour no zone under it uses', () => {
    const under = new Set([ZONE_COLOURS.clear, ZONE_COLOURS.near]);
    for (const zone of ['over', 'compacting'] as const) expect(under.has(ZONE_COLOURS[zone])).toBe(false);
  });

  it('no ANSI colour when told not to', () => {
    for (const usage of [100_000, 400_000, 960_000, undefined])
      expect(renderStatusLine({ ...base, usage, colour: false })).not.toContain('\u001b[');
  });

  it.each([
    [200, 'ctx 45% ▕████│█░░░░░▏ 450,000/1,000,000 · over the 40% ceiling · 517,000 to compaction'],
    [70, 'ctx 45% ▕████│█░░░░░▏ 450,000/1,000,000 · over the 40% ceiling'],
    [50, 'ctx 45% ▕████│█░░░░░▏ 450,000/1,000,000 over 40%'],
    [30, 'ctx 45% ▕████│█░░░░░▏ over 40%'],
    [12, 'ctx 45% over 40%'],
  ])('fits %i columns, dropping the least useful parts first', (columns, line) => {
    const shown = renderStatusLine({ ...base, usage: 450_000, columns, colour: true });
    expect(shown.replace(/\u001b\[[0-9;]*m/g, '')).toBe(line);
    if (columns >= 16) expect(visibleLength(shown)).toBeLessThanOrEqual(columns);
  });
});
