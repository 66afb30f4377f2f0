/** Which staleness facts a written orchestration file gives, decided from what was read, never from an error string. */
import { describe, expect, it } from 'vitest';
import { judgeWrittenOrchestration, type WrittenOrchestration } from '../../src/core/staleness.js';

const now = new Date('2026-11-22T04:00:00Z');

describe('judgeWrittenOrchestration', () => {
  it.each<[string, WrittenOrchestration, unknown]>([
    ['a file gone again says nothing', { status: 'missing', document: undefined }, undefined],
    [
      'not YAML: the parser message',
      { status: 'unavailable', yamlError: 'bad indentation at line 2', document: undefined },
      { kind: 'unparseable', error: 'bad indentation at line 2' },
    ],
    ['unreadable, not a YAML error', { status: 'unavailable', document: undefined }, { kind: 'no-resumption' }],
    ['a scalar document', { status: 'unavailable', document: 'text' }, { kind: 'no-resumption' }],
    ['no resumption section', { status: 'loaded', document: { header: {} } }, { kind: 'no-resumption' }],
    ['fresh', { status: 'loaded', document: { resumption: { updated_at: '2026-11-22T03:50:00Z' } } }, { kind: 'fresh' }],
    [
      'stale',
      { status: 'loaded', document: { resumption: { updated_at: '2026-11-22T03:00:00Z' } } },
      { kind: 'stale', updatedAt: '2026-11-22T03:00:00.000Z', ageMinutes: 60, staleMinutes: 30 },
    ],
  ])('%s', (_name, read, expected) => {
    expect(judgeWrittenOrchestration(read, now, 30)).toEqual(expected);
  });
});
