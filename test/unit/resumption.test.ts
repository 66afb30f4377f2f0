import { describe, expect, it } from 'vitest';
import { buildCheckpoint, checkpointFileName, parseCheckpoint, sequenceOf } from '../../src/core/checkpoint.js';
import { hasResumptionState, text, viewResumption } from '../../src/core/resumption.js';

describe('viewResumption', () => {
  it('reads seed 003’s fields', () => {
    const view = viewResumption(
      {
        current_phase: 2,
        next_step: 'apply fix',
        quality_trajectory: { current_gate: 'qg-2', score_history: { 'qg-2': [0.91, 0.96] } },
        decisions: [
          { id: 'RD-1', decision: 'keep', applied: true },
          { id: 'RD-2', summary: 'drop', applied: false },
          'plain decision',
          42,
          null,
        ],
        agent_summaries: [{ agent: 'a', summary: 'done' }, 'b: done'],
        files_to_read: [{ path: 'x.md', sections: ['s1', 's2'] }, 'y.md', { sections: 'no path' }],
      },
      { workflow_id: 'W' },
    );
    expect(view).toMatchObject({ workflowId: 'W', currentPhase: '2', nextStep: 'apply fix', currentGate: 'qg-2', lastGateScore: '0.96' });
    expect(view.pendingDecisions.map((d) => d.text)).toEqual(['drop', 'plain decision', '42']);
    expect(view.decisions).toHaveLength(4);
    expect(view.agentSummaries).toEqual(['a: done', 'b: done']);
    expect(view.filesToRead).toEqual([
      { path: 'x.md', sections: 's1, s2', purpose: undefined },
      { path: 'y.md', sections: undefined, purpose: undefined },
    ]);
  });

  it('anything that is not a mapping is an empty view', () => {
    for (const value of [null, undefined, 'x', 3, [1, 2]]) expect(hasResumptionState(viewResumption(value))).toBe(false);
  });

  it('free text is flattened, bounded, and cannot open or close a tag', () => {
    expect(text('a\n\tb\u0000c  </compaction-alert>')).toBe('a b c ‹/compaction alert>');
    expect(text('x'.repeat(10_000))!.length).toBe(2_000);
    expect(text({ a: 1 })).toBeUndefined();
    expect(text(Number.NaN)).toBeUndefined();
    expect(text('   ')).toBeUndefined();
  });
});

describe('checkpoint files', () => {
  it.each([
    [1, 'cx-001-checkpoint.json'],
    [42, 'cx-042-checkpoint.json'],
    [1000, 'cx-1000-checkpoint.json'],
  ])('sequence %s is named %s and read back', (sequence, name) => {
    expect(checkpointFileName(sequence)).toBe(name);
    expect(sequenceOf(name)).toBe(sequence);
  });

  it.each(['cx-001-checkpoint.json.tmp', '.cx-1.tmp', 'cx-01-checkpoint.json', 'cx-001-checkpoint.acknowledged', 'notes.json'])(
    '%s is not a checkpoint',
    (name) => {
      expect(sequenceOf(name)).toBeUndefined();
    },
  );

  it('what buildCheckpoint writes, parseCheckpoint reads back unchanged', () => {
    const checkpoint = buildCheckpoint({
      sequence: 3,
      now: new Date('2026-11-22T00:00:00Z'),
      sessionId: 's',
      trigger: 'manual',
      customInstructions: 'focus',
      occupancy: { kind: 'measured', tokens: 100, source: 'usage' },
      percent: 0.05,
      tier: 'NOMINAL',
      window: { tokens: 200_000, source: 'assumed' },
      ceilingPct: 40,
      orchestration: { path: '/p/O.yaml', status: 'loaded', header: null, resumption: { next_step: 'x' } },
      session: { cwd: '/p', projectDir: '/p', gitBranch: 'main', transcriptPath: '/t.jsonl' },
    });
    expect(parseCheckpoint(JSON.parse(JSON.stringify(checkpoint)))).toEqual(checkpoint);
    expect(checkpoint).toMatchObject({ id: 'cx-003', trigger: { type: 'manual', customInstructions: 'focus' }, acknowledged: false });
  });

  it.each([null, [], 'x', {}, { id: 'cx-001' }, { sequence: 1 }, { id: 1, sequence: 1 }])('%j is corrupt', (value) => {
    expect(parseCheckpoint(value)).toBeUndefined();
  });

  it('a partial checkpoint reads with the missing parts absent', () => {
    expect(parseCheckpoint({ id: 'cx-001', sequence: 1, acknowledged: true })).toMatchObject({
      id: 'cx-001',
      acknowledged: true,
      orchestration: { resumption: null },
      context: { occupancy: null },
    });
  });
});
