import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  LARGEST_MODEL_WINDOW,
  normalizeModelId,
  providerModelOf,
  registryModel,
  registryModels,
  resolveModelWindow,
  type RegistryModel,
} from '../../src/core/model-window.js';
// @ts-expect-error: a plain .mjs script without types; the same reader `npm run models --check` compares with.
import { readTableFile, TABLE_PATH } from '../../scripts/models/table-file.mjs';
import { ROOT } from '../helpers/sandbox.js';

// The committed table as the models script reads it (what `npm run models --check` compares with the client), not
// as the hook does: the hook's own reading is tested against it below.
const committed = readTableFile(readFileSync(join(ROOT, TABLE_PATH), 'utf8'));
const REGISTRY_MODELS: RegistryModel[] = committed.REGISTRY_MODEL_LINES;
const REGISTRY_PROVIDER_IDS = Object.entries(committed.REGISTRY_PROVIDER_LINES as Record<string, string>);

const id = (value: string, suffix1m = false) => ({ id: value, suffix1m });

describe('normalizeModelId: the client’s canonical id', () => {
  it.each([
    ['a catalog id', 'claude-sonnet-4-5', id('claude-sonnet-4-5')],
    ['dated id → undated', 'claude-sonnet-4-5-20250929', id('claude-sonnet-4-5')],
    ['the first-party spelling of Sonnet 4 names 4-0', 'claude-sonnet-4-20250514', id('claude-sonnet-4-0')],
    ['a missing minor is 0', 'claude-opus-4-20991231', id('claude-opus-4-0')],
    ['legacy version-first form', 'claude-3-7-sonnet-20250219', id('claude-3-7-sonnet')],
    ['dotted version', 'claude-sonnet-4.5', id('claude-sonnet-4-5')],
    ['[1m] is ignored when matching, and remembered', 'claude-sonnet-4-5[1m]', id('claude-sonnet-4-5', true)],
    ['dated with [1m]', 'claude-sonnet-4-5-20250929[1m]', id('claude-sonnet-4-5', true)],
    ['case and whitespace', '  CLAUDE-Sonnet-4-5[1M] ', id('claude-sonnet-4-5', true)],
    ['[2m] is ignored too', 'claude-opus-4-6[2m]', id('claude-opus-4-6')],
    ['Bedrock', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', id('claude-sonnet-4-5')],
    ['Bedrock, another region', 'eu.anthropic.claude-sonnet-4-6', id('claude-sonnet-4-6')],
    ['Bedrock, global, with [1m]', 'global.anthropic.claude-opus-4-6-v1[1m]', id('claude-opus-4-6', true)],
    ['Bedrock, a region the catalog does not spell', 'apac.anthropic.claude-haiku-4-5-20251001-v1:0', id('claude-haiku-4-5')],
    ['Bedrock ARN', 'arn:aws:bedrock:us-east-1:1:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0', id('claude-sonnet-4-5')],
    ['Bedrock v2', 'us.anthropic.claude-3-5-sonnet-20241022-v2:0', id('claude-3-5-sonnet')],
    ['Vertex', 'claude-sonnet-4-5@20250929', id('claude-sonnet-4-5')],
    ['Vertex v2', 'claude-3-5-sonnet-v2@20241022', id('claude-3-5-sonnet')],
    ['Vertex path', 'projects/p/locations/us-east5/publishers/anthropic/models/claude-opus-4-1@20250805', id('claude-opus-4-1')],
    ['Mantle', 'anthropic.claude-opus-4-7', id('claude-opus-4-7')],
    ['Foundry', 'claude-sonnet-4', id('claude-sonnet-4-0')],
    ['-fast', 'claude-sonnet-4-6-fast', id('claude-sonnet-4-6')],
    ['an unknown trailer: the catalog id it contains', 'claude-opus-4-6-thinking', id('claude-opus-4-6')],
    ['a -N id is not found in a date', 'x-claude-fable-5-20260101-x', id('claude-fable-5')],
    ['an unknown region prefix: the id it contains', 'bedrock.anthropic.claude-sonnet-4-5', id('claude-sonnet-4-5')],
  ])('%s → %j', (_name, raw, expected) => {
    expect(normalizeModelId(raw)).toEqual(expected);
  });

  it.each(REGISTRY_MODELS.map((model) => [model.id]))(
    'catalog id %s: the short way in (exact id) gives what the whole reading does',
    (catalogId) => {
      // Padding and upper case send the id through every step (trim, lowercase, tags, aliases, provider spellings).
      expect(normalizeModelId(catalogId)).toEqual(normalizeModelId(`  ${catalogId.toUpperCase()} `));
      expect(resolveModelWindow(catalogId)).toEqual(resolveModelWindow(` ${catalogId} `));
    },
  );

  it.each([
    ['sonnet', {}, id('claude-sonnet-5-5')],
    ['sonnet[1m]', {}, id('claude-sonnet-5-5', true)],
    ['OPUS', {}, id('claude-opus-5-5')],
    ['haiku', {}, id('claude-haiku-5-5')],
    ['fable[1m]', {}, id('claude-fable-5-2', true)],
    ['best', {}, id('claude-opus-5-5')],
    ['opusplan', {}, id('claude-sonnet-5-5')],
    ['sonnet', { provider: 'bedrock' }, id('claude-sonnet-4-5')],
    ['sonnet[1m]', { provider: 'anthropic_aws' }, id('claude-sonnet-4-6', true)],
    ['opus', { provider: 'gateway' }, id('claude-opus-4-7')],
    ['haiku', { provider: 'no-such-provider' }, id('claude-haiku-5-5')],
    ['sonnet', { aliasTargets: { sonnet: 'claude-sonnet-4-6[1m]' } }, id('claude-sonnet-4-6', true)],
    ['sonnet[1m]', { aliasTargets: { sonnet: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' } }, id('claude-sonnet-4-5', true)],
    ['opus', { aliasTargets: { sonnet: 'claude-sonnet-4-6' } }, id('claude-opus-5-5')],
    ['opusplan', { aliasTargets: { sonnet: 'claude-sonnet-4-6' } }, id('claude-sonnet-4-6')],
    ['sonnet', { aliasTargets: { sonnet: 'not a model' } }, undefined],
  ])('alias %s with %j → %j', (raw, options, expected) => {
    expect(normalizeModelId(raw, options)).toEqual(expected);
  });

  it.each([
    ['a model the catalog lacks keeps its spelling', 'claude-foo-9', id('claude-foo-9')],
    ['a newer version of a family: the base', 'claude-sonnet-4-9-20270101', id('claude-sonnet-4-9')],
    ['not Claude', 'gpt-4o-2024-08-06', id('gpt-4o-2024-08-06')],
    ['a trailing date is dropped from any id', 'custom-model-20250101', id('custom-model')],
    ['the family-first spelling of a legacy model is another model', 'claude-sonnet-3-7', id('claude-sonnet-3-7')],
    ['an unknown region prefix is no provider spelling', 'bedrock.anthropic.claude-sonnet-4-9', id('bedrock.anthropic.claude-sonnet-4-9')],
    ['the synthetic model', '<synthetic>', id('<synthetic>')],
    ['empty', '', undefined],
    ['blank', '  \t ', undefined],
    ['only a tag', '[1m]', undefined],
    ['whitespace inside', 'claude sonnet 4.5', undefined],
    ['a control character inside', 'claude-sonnet\u0000-4-5', undefined],
    ['over-long', `claude-sonnet-4-5-${'x'.repeat(300)}`, undefined],
    ['a number', 42, undefined],
    ['null', null, undefined],
    ['an object', { id: 'claude-sonnet-4-5' }, undefined],
  ])('%s: %j', (_name, raw, expected) => {
    expect(normalizeModelId(raw)).toEqual(expected);
  });

  it.each(REGISTRY_MODELS.map((model) => model.id))('%s names itself, dated, suffixed and upper-cased', (model) => {
    expect(normalizeModelId(model)).toEqual(id(model));
    expect(normalizeModelId(`${model}-20991231`)).toEqual(id(model));
    expect(normalizeModelId(`${model.toUpperCase()}[1m]`)).toEqual(id(model, true));
  });

  it.each(REGISTRY_PROVIDER_IDS)('provider spelling %s → %s', (spelling, model) => {
    expect(normalizeModelId(spelling)).toEqual(id(model));
    expect(normalizeModelId(`${spelling}[1m]`)).toEqual(id(model, true));
  });

  it('the hook reads the generated lines as the models script does: the same models and spellings, in order', () => {
    expect(REGISTRY_MODELS.length).toBeGreaterThan(20);
    expect(REGISTRY_PROVIDER_IDS.length).toBeGreaterThan(50);
    expect(registryModels()).toEqual(REGISTRY_MODELS);
    for (const model of REGISTRY_MODELS) expect(registryModel(model.id)).toEqual(model);
    for (const [spelling, model] of REGISTRY_PROVIDER_IDS) expect(providerModelOf(spelling), spelling).toBe(model);
  });

  it('only a whole key is found in the lines: no prefix, no value, no text across a space or a line break, no inherited name', () => {
    const [first, second] = REGISTRY_MODELS;
    const [spelling, model] = REGISTRY_PROVIDER_IDS.find(([key, value]) => key !== value)!;
    expect(registryModel(first!.id)).toEqual(first);
    expect(providerModelOf(spelling)).toBe(model);
    const notKeys = [
      ...['', 'claude-opus-5-', 'claude-sonnet', 'claude', '1000000', '-', '0', '1', `${spelling} ${model}`],
      ...[`${first!.id} ${first!.window ?? '-'}`, `${first!.id}\n${second!.id}`, `\n${first!.id}`, `${first!.id} `, `${first!.id}\n`],
      ...['constructor', 'toString', '__proto__', 'hasOwnProperty'],
    ];
    for (const raw of notKeys) {
      expect(registryModel(raw), JSON.stringify(raw)).toBeUndefined();
      expect(providerModelOf(raw), JSON.stringify(raw)).toBeUndefined();
    }
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(resolveModelWindow(name).kind).toBe('unknown');
  });
});

describe('resolveModelWindow', () => {
  const known = (model: string, tokens: number, basis: string) => ({ kind: 'known', id: model, tokens, basis });
  const variants = (model: string) => ({ kind: 'variants', id: model, tokens: 200_000, largest: 1_000_000 });

  it.each([
    ['claude-opus-5-5', known('claude-opus-5-5', 1_000_000, 'registry')],
    ['claude-opus-5-5[1m]', known('claude-opus-5-5', 1_000_000, 'registry')],
    ['us.anthropic.claude-haiku-5-5', known('claude-haiku-5-5', 1_000_000, 'registry')],
    ['claude-haiku-4-5-20251001', known('claude-haiku-4-5', 200_000, 'registry')],
    ['claude-opus-4-5', known('claude-opus-4-5', 200_000, 'registry')],
    ['claude-haiku-4-5[1m]', known('claude-haiku-4-5', 1_000_000, 'suffix')],
    ['claude-sonnet-4-5-20250929', variants('claude-sonnet-4-5')],
    ['claude-sonnet-4-20250514', variants('claude-sonnet-4-0')],
    ['claude-sonnet-4-6', variants('claude-sonnet-4-6')],
    ['global.anthropic.claude-opus-4-6-v1', variants('claude-opus-4-6')],
    ['claude-sonnet-4-5-20250929[1m]', known('claude-sonnet-4-5', 1_000_000, 'suffix')],
    ['claude-opus-4-6[1m]', known('claude-opus-4-6', 1_000_000, 'suffix')],
    ['sonnet[1m]', known('claude-sonnet-5-5', 1_000_000, 'registry')],
    ['claude-3-7-sonnet-20250219', known('claude-3-7-sonnet', 200_000, 'client-default')],
    ['claude-foo-9', { kind: 'unknown', id: 'claude-foo-9', largest: 1_000_000 }],
    ['claude-sonnet-4-9', { kind: 'unknown', id: 'claude-sonnet-4-9', largest: 1_000_000 }],
    ['<synthetic>', { kind: 'unknown', id: '<synthetic>', largest: 1_000_000 }],
    ['', { kind: 'unknown', id: undefined, largest: 1_000_000 }],
  ])('%s → %j', (raw, expected) => {
    expect(resolveModelWindow(raw)).toEqual(expected);
  });

  it.each([
    ['sonnet', { provider: 'bedrock' }, variants('claude-sonnet-4-5')],
    ['sonnet[1m]', { provider: 'bedrock' }, known('claude-sonnet-4-5', 1_000_000, 'suffix')],
    ['claude-opus-5-5', { disable1mContext: true }, known('claude-opus-5-5', 200_000, '1m-disabled')],
    ['claude-sonnet-4-5[1m]', { disable1mContext: true }, known('claude-sonnet-4-5', 200_000, '1m-disabled')],
    ['claude-foo-9', { disable1mContext: true }, { kind: 'unknown', id: 'claude-foo-9', largest: 200_000 }],
  ])('%s with %j → %j', (raw, options, expected) => {
    expect(resolveModelWindow(raw, options)).toEqual(expected);
  });

  // What `claude -p --model <id>` reported as the result's contextWindow on 2.1.331 and 2.1.332 (scripted API, no other settings).
  it.each([
    ['sonnet', 1_000_000],
    ['opus[1m]', 1_000_000],
    ['claude-sonnet-4-5', 200_000],
    ['claude-sonnet-4-5[1m]', 1_000_000],
    ['claude-sonnet-4-6[1m]', 1_000_000],
    ['claude-opus-4-6', 200_000],
    ['claude-opus-4-5[1m]', 1_000_000],
    ['claude-haiku-4-5', 200_000],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0[1m]', 1_000_000],
    ['claude-sonnet-4-5@20250929', 200_000],
    ['anthropic.claude-opus-4-7', 1_000_000],
    ['CLAUDE-SONNET-4-5', 200_000],
    ['claude-3-7-sonnet-20250219', 200_000],
    ['claude-foo-9', 1_000_000],
  ])('agrees with the client: %s counted %i', (raw, contextWindow) => {
    const window = resolveModelWindow(raw);
    expect(window.kind === 'unknown' ? window.largest : window.tokens).toBe(contextWindow);
  });

  it('the largest window is the largest any catalog model can have', () => {
    const windows = REGISTRY_MODELS.flatMap((model) => [model.window ?? 0, model.maximumWindow ?? 0]);
    expect(LARGEST_MODEL_WINDOW).toBe(Math.max(1_000_000, ...windows));
    for (const model of REGISTRY_MODELS) {
      const window = resolveModelWindow(`${model.id}[1m]`);
      expect(window.kind === 'known' && window.tokens <= LARGEST_MODEL_WINDOW).toBe(true);
    }
  });

  it.each(REGISTRY_MODELS.map((model) => [model.id, model] as const))('%s: the kind follows its catalog flags', (_id, model) => {
    const expected = model.native1m || !model.supports1mBeta ? 'known' : 'variants';
    expect(resolveModelWindow(model.id).kind).toBe(expected);
  });
});
