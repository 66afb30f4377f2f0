/** report's note on a peak at or over 100 %: why, and how to state the window. */
import { describe, expect, it } from 'vitest';
import { peakNote } from '../../src/core/report.js';

const points = (...tokens: number[]) => tokens.map((t, i) => ({ turn: i + 1, tokens: t, percent: 0 }));

describe('peakNote', () => {
  it('over 100 %: the window it was judged against is wrong; says by how much and how to state the real one', () => {
    expect(peakNote({ points: points(100_000, 454_000), window: 200_000, windowSource: 'env' })).toBe(
      'Peak over 100%: the session held 454,000 tokens, more than the 200,000-token window it was judged against (env), so that window is wrong ' +
        '(often a [1m] variant the transcript does not name, or a stated window that is too small). Judge it against the real one: report --window 1000000; ' +
        'and tell the guard: DEV_TEAM_CONTEXT_WINDOW=1000000 or "window" in a policy file.',
    );
  });

  it('at 100 % on a window only the session’s own size proves: unknown, not full', () => {
    expect(
      peakNote({ points: points(1_200_005), window: 1_200_005, windowSource: 'what this session held', windowProvenance: 'evidence' }),
    ).toMatch(/^Peak 100% only because the window is unknown: .* report --window 1300000;/);
  });

  it('within the window: nothing to explain', () => {
    expect(
      peakNote({ points: points(150_000, 200_000), window: 200_000, windowSource: 'model claude-haiku-4-5', windowProvenance: 'model' }),
    ).toBeUndefined();
  });
});
