/** The session's model as a window fact: the newest turn's model, and the attachment that keeps its `[1m]`. */
import { describe, expect, it } from 'vitest';
import { judgeModelWindow, needsAttachment, sameModel } from '../../src/core/model-window-fact.js';

const knobs = { disable1m: false };

describe('judgeModelWindow', () => {
  it.each([
    ['the default model', 'claude-opus-5-5', undefined, { kind: 'known', id: 'claude-opus-5-5', tokens: 1_000_000 }],
    ['a 200K model', 'claude-haiku-4-5-20251001', 'claude-haiku-4-5', { kind: 'known', id: 'claude-haiku-4-5', tokens: 200_000 }],
    [
      'a model with a 1M variant, no attachment: ambiguous',
      'claude-sonnet-4-5-20250929',
      undefined,
      { kind: 'ambiguous', id: 'claude-sonnet-4-5', tokens: 200_000, largest: 1_000_000 },
    ],
    [
      'its attachment says [1m]: 1M, known',
      'claude-sonnet-4-5',
      'claude-sonnet-4-5[1m]',
      { kind: 'known', id: 'claude-sonnet-4-5[1m]', tokens: 1_000_000 },
    ],
    [
      'its attachment has no [1m]: still only assumed, since --betas runs the 1M variant with no [1m] anywhere',
      'claude-sonnet-4-5',
      'claude-sonnet-4-5',
      { kind: 'ambiguous', id: 'claude-sonnet-4-5', tokens: 200_000, largest: 1_000_000 },
    ],
    [
      'a Bedrock attachment names the same model',
      'claude-sonnet-4-5-20250929',
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0[1m]',
      { kind: 'known', id: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0[1m]', tokens: 1_000_000 },
    ],
    [
      'an attachment from before a model switch does not count',
      'claude-sonnet-4-5',
      'claude-opus-4-6[1m]',
      { kind: 'ambiguous', id: 'claude-sonnet-4-5', tokens: 200_000, largest: 1_000_000 },
    ],
    [
      '[1m] on a 200K-only model still means 1M (the client counts it)',
      'claude-haiku-4-5',
      'claude-haiku-4-5[1m]',
      { kind: 'known', id: 'claude-haiku-4-5[1m]', tokens: 1_000_000 },
    ],
    ['an unknown model: the client default', 'claude-foo-9', undefined, { kind: 'unknown', id: 'claude-foo-9', tokens: 1_000_000 }],
    ['only an attachment (after a compaction)', undefined, 'claude-opus-5-5', { kind: 'known', id: 'claude-opus-5-5', tokens: 1_000_000 }],
    ['nothing known', undefined, undefined, undefined],
  ])('%s', (_name, measured, attachment, expected) => {
    expect(judgeModelWindow(measured, attachment, knobs)).toEqual(expected);
  });

  it('CLAUDE_CODE_DISABLE_1M_CONTEXT: [1m] counts for nothing', () => {
    expect(judgeModelWindow('claude-sonnet-4-5', 'claude-sonnet-4-5[1m]', { disable1m: true })).toMatchObject({
      kind: 'known',
      tokens: 200_000,
    });
  });

  it('CLAUDE_CODE_MAX_CONTEXT_TOKENS: the window of a model the client does not know', () => {
    expect(judgeModelWindow('claude-foo-9', undefined, { disable1m: false, maxContextTokens: 300_000 })).toMatchObject({
      kind: 'unknown',
      tokens: 300_000,
    });
  });
});

describe('needsAttachment: the transcript is searched for it only when it can change the window', () => {
  it.each([
    ['claude-opus-5-5', false],
    ['claude-haiku-4-5', true],
    ['claude-sonnet-4-5', true],
    ['claude-opus-4-6', true],
    ['claude-foo-9', false],
    [undefined, true],
  ])('%s → %s', (model, expected) => {
    expect(needsAttachment(model, knobs)).toBe(expected);
  });
});

describe('sameModel', () => {
  it.each([
    ['claude-sonnet-4-5[1m]', 'claude-sonnet-4-5-20250929', true],
    ['claude-sonnet-4-5', 'claude-sonnet-4-6', false],
    ['', 'claude-sonnet-4-5', false],
  ])('%s ~ %s → %s', (a, b, expected) => {
    expect(sameModel(a, b)).toBe(expected);
  });
});
