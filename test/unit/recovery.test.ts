/** The recovery skill's save step: what it tells the model to do next. */
import { describe, expect, it } from 'vitest';
import { renderSaveResult } from '../../src/core/recovery.js';

const saved = {
  kind: 'saved',
  id: 'cx-002',
  fill: '45% (450,005 of 1,000,000 tokens, window: env), tier OVER_CEILING',
  path: 'x.json',
} as const;

describe('renderSaveResult', () => {
  it('attended, as usual: /compact (or /clear)', () => {
    expect(renderSaveResult(saved, 'attended')).toContain('ask the person to run /compact now (or /clear;');
  });

  it.each(['attended', 'unattended', 'unknown'] as const)(
    '%s, after a compaction that left the context over the ceiling: never /compact as the next step (issue 20)',
    (attendance) => {
      const text = renderSaveResult(saved, attendance, { postTokens: 449_400, ceilingPct: 40 });
      expect(text).toContain('a compaction already left 449,400 tokens, over the 40% ceiling, so /compact again will not bring it under');
      expect(text).toContain('/clear');
      expect(text).not.toMatch(/run \/compact|compacts by itself/);
    },
  );
});
