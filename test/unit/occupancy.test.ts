import { describe, expect, it } from 'vitest';
import { classifyRecord, computeUsageTokens, occupancyFromEvidence } from '../../src/core/occupancy.js';

const usage = { input_tokens: 5, cache_creation_input_tokens: 1_000, cache_read_input_tokens: 90_000, output_tokens: 20 };
const assistant = (extra: Record<string, unknown> = {}, message: Record<string, unknown> = {}) => ({
  type: 'assistant',
  isSidechain: false,
  message: { model: 'claude-opus-5-5', usage, ...message },
  ...extra,
});

describe('classifyRecord', () => {
  it.each([
    ['main-thread assistant', assistant(), { kind: 'usage', tokens: 91_005, model: 'claude-opus-5-5' }],
    ['sidechain assistant', assistant({ isSidechain: true }), undefined],
    ['API error turn', assistant({ isApiErrorMessage: true }), undefined],
    ['synthetic turn', assistant({}, { model: '<synthetic>' }), undefined],
    ['assistant without usage', assistant({}, { usage: undefined }), undefined],
    ['user record', { type: 'user', message: { usage } }, undefined],
    [
      'progress record nesting a subagent usage',
      { type: 'progress', data: { type: 'agent_progress', message: { type: 'assistant', message: { usage } } } },
      undefined,
    ],
    ['non-object', 'assistant', undefined],
    ['null', null, undefined],
    ['array', [assistant()], undefined],
    [
      'compact boundary with postTokens',
      { type: 'system', subtype: 'compact_boundary', compactMetadata: { trigger: 'auto', preTokens: 951_011, postTokens: 2_598 } },
      { kind: 'compaction', postTokens: 2_598, preTokens: 951_011, trigger: 'auto' },
    ],
    [
      'compact boundary without postTokens (2.0.x)',
      { type: 'system', subtype: 'compact_boundary', compactMetadata: { trigger: 'manual', preTokens: 90_000 } },
      { kind: 'compaction', postTokens: undefined, preTokens: 90_000, trigger: 'manual' },
    ],
    ['other system record', { type: 'system', subtype: 'informational' }, undefined],
  ])('%s', (_name, record, expected) => {
    expect(classifyRecord(record)).toEqual(expected);
  });

  it('inside a subagent, counts only that agent’s own records (which are all sidechain)', () => {
    const own = assistant({ isSidechain: true, agentId: 'a1' });
    const other = assistant({ isSidechain: true, agentId: 'a2' });
    expect(classifyRecord(own, { agentId: 'a1' })).toMatchObject({ kind: 'usage', tokens: 91_005 });
    expect(classifyRecord(other, { agentId: 'a1' })).toBeUndefined();
    expect(classifyRecord(assistant(), { agentId: 'a1' })).toBeUndefined();
    expect(classifyRecord(own)).toBeUndefined();
  });
});

describe('computeUsageTokens', () => {
  it.each([
    ['sums the three prompt-side fields', usage, 91_005],
    ['missing cache fields count as zero', { input_tokens: 7 }, 7],
    ['null cache fields count as zero', { input_tokens: 7, cache_read_input_tokens: null }, 7],
    ['input_tokens null is no measurement, not zero', { input_tokens: null, cache_read_input_tokens: 90_000 }, undefined],
    ['input_tokens missing is no measurement', { cache_read_input_tokens: 90_000 }, undefined],
    ['no prompt-side field at all', { output_tokens: 9 }, undefined],
    ['numbers as strings are unusable', { input_tokens: '5' }, undefined],
    ['negative counts are unusable', { input_tokens: -5, cache_read_input_tokens: 10 }, undefined],
    ['NaN is unusable', { input_tokens: Number.NaN }, undefined],
    ['fractions are unusable', { input_tokens: 1.5 }, undefined],
    ['absurd totals beyond safe integers are unusable', { input_tokens: Number.MAX_SAFE_INTEGER, cache_read_input_tokens: 10 }, undefined],
    ['not an object', 'usage', undefined],
  ])('%s', (_name, value, expected) => {
    expect(computeUsageTokens(value)).toBe(expected);
  });
});

describe('occupancyFromEvidence', () => {
  it.each([
    ['usage', { kind: 'usage', tokens: 10, model: undefined } as const, false, { kind: 'measured', tokens: 10, source: 'usage' }],
    [
      'compaction with postTokens',
      { kind: 'compaction', postTokens: 2_598, preTokens: 1, trigger: 'auto' } as const,
      false,
      { kind: 'measured', tokens: 2_598, source: 'compaction' },
    ],
    [
      'compaction without postTokens',
      { kind: 'compaction', postTokens: undefined, preTokens: 1, trigger: 'auto' } as const,
      false,
      { kind: 'unknown-since-compaction' },
    ],
    ['nothing found', undefined, false, { kind: 'unavailable', reason: 'no-usage' }],
    ['nothing found within the cap', undefined, true, { kind: 'unavailable', reason: 'scan-cap' }],
  ])('%s', (_name, evidence, capHit, expected) => {
    expect(occupancyFromEvidence(evidence, capHit)).toEqual(expected);
  });
});

import { parsePreToolUseInput } from '../../src/core/hook-input.js';

describe('parsePreToolUseInput', () => {
  const base = { session_id: 's', transcript_path: '/t.jsonl', tool_name: 'Skill', tool_input: { skill: 'x' } };
  it.each<[string, unknown, boolean]>([
    ['a real input, unknown fields ignored', { ...base, cwd: '/p', prompt_id: 'x', effort: { level: 'medium' } }, true],
    ['inside a subagent', { ...base, agent_id: 'a1', agent_type: 'Explore' }, true],
    ['missing session_id', { ...base, session_id: undefined }, false],
    ['empty transcript_path', { ...base, transcript_path: '' }, false],
    ['numeric tool_name', { ...base, tool_name: 7 }, false],
    ['cwd not a string', { ...base, cwd: 1 }, false],
    ['agent_id not a string', { ...base, agent_id: {} }, false],
    ['absurdly long session id', { ...base, session_id: 'x'.repeat(5000) }, false],
    ['an array', [base], false],
    ['null', null, false],
  ])('%s', (_name, value, ok) => {
    expect(parsePreToolUseInput(value) !== undefined).toBe(ok);
  });

  it('keeps exactly the fields the guard uses', () => {
    expect(parsePreToolUseInput({ ...base, cwd: '/p', agent_id: 'a', extra: 1 })).toEqual({ ...base, cwd: '/p', agent_id: 'a' });
  });
});
