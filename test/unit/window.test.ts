/** The window a verdict is judged against (DESIGN.md, "Resolving the window"): precedence, provenance and evidence. */
import { describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../src/core/policy.js';
import {
  judgeWindowNotice,
  LARGEST_KNOWN_WINDOW,
  resolveWindow,
  statedWindows,
  usableStatusline,
  type ModelWindowFact,
  type WindowFacts,
} from '../../src/core/window.js';

const opus: ModelWindowFact = { kind: 'known', id: 'claude-opus-5-5', tokens: 1_000_000 };
const haiku: ModelWindowFact = { kind: 'known', id: 'claude-haiku-4-5', tokens: 200_000 };
const sonnet: ModelWindowFact = { kind: 'ambiguous', id: 'claude-sonnet-4-5', tokens: 200_000, largest: 1_000_000 };
/** Its attachment named no [1m]: the client counts 200,000, unless the session was started with `--betas context-1m-…`. */
const sonnetAttached: ModelWindowFact = { kind: 'known', id: 'claude-sonnet-4-5', tokens: 200_000, largest: 1_000_000 };
const unknown: ModelWindowFact = { kind: 'unknown', id: 'claude-foo-9', tokens: 1_000_000 };
const env = (tokens: number) => ({ stated: { tokens, source: 'env' as const } });
const resolve = (facts: Partial<WindowFacts>) => resolveWindow({ heldTokens: 0, ...facts });
const pick = (facts: Partial<WindowFacts>) => {
  const w = resolve(facts);
  return [w.tokens, w.source, w.verified];
};

describe('resolveWindow: precedence', () => {
  it.each<[string, Partial<WindowFacts>, [number, string, boolean]]>([
    ['nothing known: the largest window, assumed', {}, [LARGEST_KNOWN_WINDOW, 'assumed', false]],
    ["the default model's own window, verified", { model: opus }, [1_000_000, 'model', true]],
    ['a 200K model, verified (its attachment said no [1m])', { model: haiku }, [200_000, 'model', true]],
    ['a model with a 1M variant nothing rules out: the smaller, assumed', { model: sonnet }, [200_000, 'assumed', false]],
    ["a model Claude Code's table lacks: the client's 1M default, assumed", { model: unknown }, [1_000_000, 'assumed', false]],
    ['env beats the model', { ...env(500_000), model: opus }, [500_000, 'env', true]],
    ['the SDK beats the model', { sdk: 900_000, model: opus }, [900_000, 'sdk', true]],
    [
      'a fresh status line report beats the model',
      { statusline: { tokens: 1_000_000, source: 'statusline' }, model: sonnet },
      [1_000_000, 'statusline', true],
    ],
    ['env beats the SDK', { ...env(300_000), sdk: 1_000_000 }, [300_000, 'env', true]],
    [
      "a project policy's window is below Claude Code's reports",
      { projectStated: { tokens: 100_000_000, source: 'policy' }, sdk: 200_000 },
      [200_000, 'sdk', true],
    ],
    [
      "a project policy's window is below the model's",
      { projectStated: { tokens: 100_000_000, source: 'policy' }, model: haiku },
      [200_000, 'model', true],
    ],
    [
      'a project policy states an unknown model',
      { projectStated: { tokens: 500_000, source: 'policy' }, model: unknown },
      [500_000, 'policy', true],
    ],
    [
      'a learned window for an unknown model',
      { learned: { tokens: 400_000, modelId: 'claude-foo-9' }, model: unknown },
      [400_000, 'learned', true],
    ],
    [
      'a learned window never overrides the table',
      { learned: { tokens: 200_000, modelId: 'claude-opus-5-5' }, model: opus },
      [1_000_000, 'model', true],
    ],
    [
      'a learned window never picks a variant',
      { learned: { tokens: 200_000, modelId: 'claude-sonnet-4-5' }, model: sonnet },
      [200_000, 'assumed', false],
    ],
  ])('%s', (_name, facts, expected) => {
    expect(pick(facts)).toEqual(expected);
  });
});

describe('resolveWindow: evidence beats every source', () => {
  it.each<[string, Partial<WindowFacts>, [number, string, boolean]]>([
    ['holding more than 200K proves the 1M variant', { model: sonnet, heldTokens: 300_000 }, [1_000_000, 'evidence', true]],
    ['holding exactly 200K proves nothing', { model: sonnet, heldTokens: 200_000 }, [200_000, 'assumed', false]],
    ['an attachment without [1m]: 200K, verified', { model: sonnetAttached, heldTokens: 150_000 }, [200_000, 'model', true]],
    [
      'an attachment without [1m], and the session held more (--betas): the 1M variant, proven',
      { model: sonnetAttached, heldTokens: 300_005 },
      [1_000_000, 'evidence', true],
    ],
    [
      'a status line that reported 200K for a 1M session is outgrown',
      { statusline: { tokens: 200_000, source: 'statusline' }, model: opus, heldTokens: 360_000 },
      [1_000_000, 'model', true],
    ],
    ['a wrong stated window falls through to the model', { ...env(200_000), model: opus, heldTokens: 300_000 }, [1_000_000, 'model', true]],
    [
      'everything outgrown: the held amount, never verified',
      { ...env(200_000), model: haiku, heldTokens: 300_000 },
      [300_000, 'evidence', false],
    ],
  ])('%s', (_name, facts, expected) => {
    expect(pick(facts)).toEqual(expected);
  });

  it('names the strongest window it disproved', () => {
    expect(resolve({ ...env(200_000), sdk: 250_000, model: opus, heldTokens: 300_000 }).disproved).toEqual({
      tokens: 200_000,
      source: 'env',
    });
  });

  it('never leaves a percentage over 100 %: the window is at least what was held', () => {
    for (const held of [0, 1, 199_999, 200_001, 999_999, 1_000_001, 5_000_000])
      for (const facts of [{ model: sonnet }, { model: sonnetAttached }, { model: haiku }, env(200_000), { model: unknown }, {}])
        expect(resolve({ ...facts, heldTokens: held }).tokens).toBeGreaterThanOrEqual(held);
  });
});

describe('judgeWindowNotice: what the person hears once', () => {
  it('a disproved window', () => {
    const window = resolve({ ...env(200_000), model: opus, heldTokens: 300_000 });
    expect(judgeWindowNotice(window, 300_000)).toMatchObject({ id: 'window-disproved', held: 300_000, disproved: { tokens: 200_000 } });
  });
  it("a model window the session outgrew names the model's larger variant as the window now used", () => {
    const window = resolve({ model: sonnetAttached, heldTokens: 300_005 });
    expect(judgeWindowNotice(window, 300_005)).toMatchObject({
      id: 'window-disproved',
      disproved: { tokens: 200_000, source: 'model', detail: 'claude-sonnet-4-5' },
      window: { tokens: 1_000_000, source: 'evidence', detail: 'claude-sonnet-4-5' },
    });
  });
  it('an unknown model', () => {
    expect(judgeWindowNotice(resolve({ model: unknown }), 0)).toMatchObject({ id: 'unknown-model', model: 'claude-foo-9' });
  });
  it('nothing for a known model', () => {
    expect(judgeWindowNotice(resolve({ model: opus }), 100_000)).toBeUndefined();
  });
});

describe('statedWindows: who stated the window', () => {
  it.each([
    ['nothing configured', [], {}],
    ['env', [{ source: { layer: 'env' as const }, values: { window: 1_000_000 } }], { stated: { tokens: 1_000_000, source: 'env' } }],
    [
      'the user policy',
      [{ source: { layer: 'user' as const, detail: '/h/.claude/context-ceiling.json' }, values: { window: 500_000 } }],
      { stated: { tokens: 500_000, source: 'policy', detail: '/h/.claude/context-ceiling.json' } },
    ],
    [
      'a project policy',
      [{ source: { layer: 'project' as const, detail: '/p/.claude/context-ceiling.json' }, values: { window: 500_000 } }],
      { projectStated: { tokens: 500_000, source: 'policy', detail: '/p/.claude/context-ceiling.json' }, projectTightenOnly: false },
    ],
    [
      'a preset a project extends',
      [{ source: { layer: 'preset' as const, detail: 'large-window', byProject: true as const }, values: { window: 1_000_000 } }],
      { projectStated: { tokens: 1_000_000, source: 'policy', detail: 'large-window' }, projectTightenOnly: false },
    ],
    [
      'a project policy when the operator made the guard strict: it may only tighten',
      [
        { source: { layer: 'env' as const }, values: { strict: true } },
        { source: { layer: 'project' as const, detail: 'p.json' }, values: { window: 100_000_000 } },
      ],
      { projectStated: { tokens: 100_000_000, source: 'policy', detail: 'p.json' }, projectTightenOnly: true },
    ],
  ])('%s', (_name, layers, expected) => {
    expect(statedWindows(resolvePolicy(layers))).toEqual(expected);
  });
});

describe("a project's window when the operator made the guard strict: it may only tighten", () => {
  const project = (tokens: number) => ({
    projectStated: { tokens, source: 'policy' as const, detail: 'p.json' },
    projectTightenOnly: true,
  });
  it.each<[string, Partial<WindowFacts>, [number, string, boolean]]>([
    ['a huge window over an unknown model is ignored', { ...project(100_000_000), model: unknown }, [1_000_000, 'assumed', false]],
    ['a smaller window over an unknown model tightens, and blocks', { ...project(300_000), model: unknown }, [300_000, 'policy', true]],
    ["never over the model's own window", { ...project(100_000), model: opus }, [100_000, 'policy', true]],
    ['never below what the session held', { ...project(100_000), model: opus, heldTokens: 150_000 }, [1_000_000, 'model', true]],
  ])('%s', (_name, facts, expected) => {
    expect(pick(facts)).toEqual(expected);
  });
});

describe('usableStatusline', () => {
  const same = () => true;
  it('fresh and about the same model', () => {
    expect(usableStatusline({ tokens: 1_000_000, ageSeconds: 3, modelId: 'claude-sonnet-4-5[1m]' }, 60, same)).toEqual({
      tokens: 1_000_000,
      source: 'statusline',
      detail: '3s old',
    });
  });
  it('too old', () => expect(usableStatusline({ tokens: 1_000_000, ageSeconds: 61 }, 60, same)).toBeUndefined());
  it('another model', () => expect(usableStatusline({ tokens: 200_000, ageSeconds: 1, modelId: 'x' }, 60, () => false)).toBeUndefined());
});
