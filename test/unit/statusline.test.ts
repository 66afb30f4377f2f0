import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStatusInput, renderStatusLine } from '../../src/core/statusline.js';
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

describe('status line input around /compact (recorded from Claude Code 2.1.331)', () => {
  const dir = REAL_CLIENTS.find((client) => client.version === '2.1.331')!.dir;

  // 2.1.328 sent all-zero current_usage here; 2.1.331 sends null, as before a first turn. The window stays known.
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
});

describe('renderStatusLine', () => {
  it.each([
    [{ usage: 121_005, window: 1_000_000, percent: 12.1, tier: 'NOMINAL' as const }, 'ctx 12% ▕█░░░░░░░░░▏ 121,005/1,000,000 NOMINAL'],
    [{ usage: 180_000, window: 200_000, percent: 90, tier: 'EMERGENCY' as const }, 'ctx 90% ▕█████████░▏ 180,000/200,000 EMERGENCY'],
    [{ usage: 0, window: 200_000, percent: 0, tier: 'NOMINAL' as const }, 'ctx 0% ▕░░░░░░░░░░▏ 0/200,000 NOMINAL'],
    [{ usage: undefined, window: 1_000_000, percent: undefined, tier: 'UNKNOWN' as const }, 'ctx –/1,000,000 no turn yet'],
  ])('%j', (facts, line) => {
    expect(renderStatusLine({ ...facts, colour: false })).toBe(line);
  });

  it('colours by tier unless told not to', () => {
    expect(renderStatusLine({ usage: 180_000, window: 200_000, percent: 90, tier: 'EMERGENCY', colour: true })).toContain(
      '\u001b[1;31mEMERGENCY\u001b[0m',
    );
    expect(renderStatusLine({ usage: 180_000, window: 200_000, percent: 90, tier: 'EMERGENCY', colour: false })).not.toContain('\u001b[');
  });
});
