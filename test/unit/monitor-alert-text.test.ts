import { compactionPointTokens, type AutocompactPoint } from '../../src/core/autocompact.js';
/** Golden tests: the exact text a model receives, for every template and tier; and their token budgets. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCheckpoint, type Checkpoint, type OrchestrationRecord } from '../../src/core/checkpoint.js';
import type { Occupancy } from '../../src/core/occupancy.js';
import type { ResolvedWindow } from '../../src/core/window.js';
import { computePercent, computeTier, DEFAULT_TIER_PCTS, sessionTiers } from '../../src/core/tiers.js';
import { renderResumptionContext } from '../../src/core/resumption-text.js';
import { judgeStaleness, renderStaleness } from '../../src/core/staleness.js';
import { type MonitorFacts, monitorState, renderMonitor } from '../../src/core/monitor-text.js';
import { renderCompactionAlert } from '../../src/core/alert-text.js';
import { estimateTokens } from '../../src/core/text-budget.js';
import { misprintedNumbers } from '../helpers/computed-lines.js';

const WINDOW: ResolvedWindow = { tokens: 200_000, source: 'model', detail: 'claude-haiku-4-5', verified: true };
const thresholds = { ceilingPct: 40, warningPct: 70, criticalPct: 80, emergencyPct: 88 };

/** As the hook renders it: the default tiers placed below Claude Code's compaction point for the window. */
function monitorAt(occupancy: Occupancy, window = WINDOW, autocompact?: AutocompactPoint) {
  return renderMonitor(monitorFactsAt(occupancy, window, autocompact));
}

function monitorFactsAt(occupancy: Occupancy, window = WINDOW, autocompact?: AutocompactPoint): MonitorFacts {
  const percent = occupancy.kind === 'measured' ? computePercent(occupancy.tokens, window.tokens) : undefined;
  const tiers = sessionTiers(
    { ceilingPct: 40, tiers: DEFAULT_TIER_PCTS },
    window.tokens,
    compactionPointTokens(autocompact, window.tokens),
  );
  return {
    occupancy,
    percent,
    tier: computeTier(percent, tiers),
    window,
    ceilingPct: 40,
    recoverySkill: 'context-summarization',
    orchestrationFile: 'ORCHESTRATION.yaml',
    autocompact,
    compactAt: compactionPointTokens(autocompact, window.tokens),
    session: { compactions: 0, last: undefined },
    maxScanBytes: 64 * 1024 * 1024,
  };
}
const measured = (tokens: number): Occupancy => ({ kind: 'measured', tokens, source: 'usage' });

/** The resumption section of seed 003's populated example (PROJ-001 at QG-2). */
const PROJ_001: OrchestrationRecord = {
  path: '/home/dev/project/ORCHESTRATION.yaml',
  status: 'loaded',
  header: { workflow_id: 'FEAT-015', project_id: 'PROJ-001', plan_file: 'projects/PROJ-001-oss-release/ORCHESTRATION_PLAN.md' },
  resumption: {
    current_phase: 2,
    current_phase_name: 'Core License Changes',
    workflow_status: 'in_progress',
    current_activity: 'qg-2-iteration-1',
    last_checkpoint: 'cp-004',
    next_step: 'Complete QG-2 iteration 1 revision (apply DA-001 fix), then re-score',
    critical_context:
      'QG-2 was scoring 3 Phase 2 deliverables. S-007 found 1 major finding: DA-001 copyright holder inconsistency between NOTICE and header_template. Revision was in progress.',
    updated_at: '2026-11-22T03:00:00Z',
    compaction_events: { count: 1 },
    quality_trajectory: {
      gates_completed: ['qg-1'],
      gates_remaining: ['qg-3', 'qg-final'],
      current_gate: 'qg-2',
      current_gate_iteration: 1,
      score_history: { 'qg-2': [0.91, 0.96] },
      lowest_dimension: 'traceability',
    },
    decisions: [
      { id: 'RD-001', decision: "Align copyright holder to 'Adam Nowak'", impact: 'Phase 3 header_template', applied: false },
      { id: 'RD-000', decision: 'Release under Apache-2.0', applied: true },
    ],
    agent_summaries: { 'ps-researcher': 'license survey complete', 'nse-reviewer': 'NOTICE reviewed, 1 finding' },
    defect_summary: { recurring_patterns: ['copyright holder drift between files'] },
    files_to_read: [
      {
        path: 'projects/PROJ-001-oss-release/ORCHESTRATION.yaml',
        sections: 'resumption, quality_gates.qg-2',
        purpose: 'current workflow state',
      },
      { path: 'projects/PROJ-001-oss-release/ORCHESTRATION_PLAN.md', sections: 'Phase 2, Phase 3', purpose: 'what the phases deliver' },
    ],
  },
};

function checkpointWith(
  orchestration: OrchestrationRecord,
  over: Partial<{ tokens: number; trigger: string; sequence: number; custom: string }> = {},
): Checkpoint {
  const tokens = over.tokens ?? 177_200;
  const percent = computePercent(tokens, 200_000);
  return buildCheckpoint({
    sequence: over.sequence ?? 1,
    now: new Date('2026-11-22T03:47:28.229Z'),
    sessionId: '23a83752-3e60-4380-a61e-938c7063d518',
    trigger: over.trigger ?? 'auto',
    customInstructions: over.custom ?? null,
    occupancy: measured(tokens),
    percent,
    tier: computeTier(percent, thresholds),
    window: WINDOW,
    ceilingPct: 40,
    orchestration,
    session: {
      cwd: '/home/dev/project',
      projectDir: '/home/dev/project',
      gitBranch: 'main',
      transcriptPath: '/home/dev/.claude/projects/-home-dev-project/23a83752.jsonl',
    },
  });
}

const CP_PATH = '/home/dev/project/.claude/context-ceiling/checkpoints/23a83752-3e60-4380-a61e-938c7063d518/cx-001-checkpoint.json';
const alert = (checkpoint: Checkpoint | undefined, eventNumber = 1, eventCount = 1) =>
  renderCompactionAlert({
    checkpoint,
    checkpointPath: CP_PATH,
    orchestrationPath: '/home/dev/project/ORCHESTRATION.yaml',
    eventNumber,
    eventCount,
  });

describe('<context-monitor> at every tier', () => {
  // The last column: what the verdict's reason says the monitor found (`monitor <state>` on the debug channel).
  it.each<[string, Occupancy, number, string]>([
    ['nominal', measured(24_000), 100, 'nominal'],
    ['over-ceiling', measured(90_000), 100, 'over-ceiling'],
    // 200,000 window: Claude Code compacts at about 167,000, so the tiers start at 62.6 %, 71 % and 79.3 %.
    ['warning', measured(130_000), 200, 'warning'],
    ['critical', measured(144_000), 200, 'critical'],
    ['emergency', measured(160_000), 200, 'emergency'],
    ['unknown-since-compaction', { kind: 'unknown-since-compaction' }, 100, 'unknown-since-compaction'],
    ['unmeasured', { kind: 'unavailable', reason: 'no-usage' }, 100, 'unmeasured no-usage'],
    ['unmeasured-scan-cap', { kind: 'unavailable', reason: 'scan-cap' }, 100, 'unmeasured scan-cap'],
    ['unmeasured-unreadable', { kind: 'unavailable', reason: 'unreadable' }, 100, 'unmeasured unreadable'],
    ['window-contradicted', measured(951_005), 100, 'over-window'],
  ])('%s', async (name, occupancy, budget, state) => {
    const facts = monitorFactsAt(occupancy);
    const text = renderMonitor(facts);
    await expect(text).toMatchFileSnapshot(`../golden/monitor-${name}.txt`);
    expect(estimateTokens(text)).toBeLessThanOrEqual(budget);
    expect(monitorState(facts)).toBe(state);
  });

  it('names Claude Code’s own auto-compaction point when it is overridden', async () => {
    await expect(monitorAt(measured(700_000), { tokens: 1_000_000, source: 'env' } as never, { pct: 80 })).toMatchFileSnapshot(
      '../golden/monitor-warning-autocompact.txt',
    );
  });

  it('carries seed 004’s fields and seed 003’s staleness (L4): what is left, compactions, last checkpoint, FRESH/STALE', () => {
    const text = renderMonitor({
      occupancy: measured(90_000),
      percent: 45,
      tier: 'OVER_CEILING',
      window: WINDOW,
      ceilingPct: 40,
      recoverySkill: 'context-summarization',
      orchestrationFile: 'ORCHESTRATION.yaml',
      compactAt: 167_000,
      session: { compactions: 2, last: { id: 'cx-003', trigger: 'skill', ageSeconds: 300 } },
      staleness: { kind: 'stale', updatedAt: '2026-11-25T08:00:00.000Z', ageMinutes: 125, staleMinutes: 30 },
    });
    expect(text).toContain("Left: 10,000 over the ceiling; 77,000 to Claude Code's compaction (~167,000).");
    expect(text).toContain('Compactions: 2. Last checkpoint: cx-003 (recovery skill, 5 min ago). Resumption: STALE (2 h 5 min old).');
    expect(estimateTokens(text)).toBeLessThanOrEqual(100);
    const fresh = monitorAt(measured(24_000));
    expect(fresh).toContain("Left: 56,000 to the ceiling; 143,000 to Claude Code's compaction (~167,000).");
    expect(fresh).toContain('Compactions: 0. Last checkpoint: none.');
  });

  it('right after a compaction that left the context over the ceiling, it never asks for /compact (or the skill that asks for it) again', () => {
    const text = renderMonitor({
      occupancy: { kind: 'measured', tokens: 90_000, source: 'compaction' },
      percent: 45,
      tier: 'OVER_CEILING',
      window: WINDOW,
      ceilingPct: 40,
      recoverySkill: 'context-summarization',
      orchestrationFile: 'ORCHESTRATION.yaml',
    });
    expect(text).toContain('do not ask for /compact again');
    expect(text).not.toContain('/context-summarization');
  });

  it.each([
    ['OVER_CEILING', 90_000],
    ['WARNING', 130_000],
    ['CRITICAL', 144_000],
    ['EMERGENCY', 160_000],
  ] as const)(
    'after a compaction that left %s, whether reported just now or read from the boundary, no step just taken is asked for',
    (tier, tokens) => {
      const base = {
        percent: computePercent(tokens, WINDOW.tokens),
        tier,
        window: WINDOW,
        ceilingPct: 40,
        recoverySkill: 'context-summarization',
        orchestrationFile: 'ORCHESTRATION.yaml',
        compactAt: 167_000,
        session: { compactions: 3, last: { id: 'cx-003', trigger: 'auto', ageSeconds: 5 } },
      };
      const told = renderMonitor({
        ...base,
        occupancy: measured(tokens + 600),
        compacted: { trigger: 'auto', preTokens: 167_020, postTokens: tokens },
      });
      const boundary = renderMonitor({ ...base, occupancy: { kind: 'measured', tokens, source: 'compaction' } });
      for (const text of [told, boundary]) {
        expect(text).toContain(
          `Tier ${tier}: still past the 40% ceiling after a compaction; do not ask for /compact again, it was just done.`,
        );
        expect(text).not.toContain('/context-summarization');
        expect(text).toContain("to Claude Code's compaction (~167,000).");
        expect(text).toContain('Compactions: 3. Last checkpoint: cx-003 (auto compaction, 5s ago).');
      }
      // The report, said once per compaction, takes WARNING's 200 tokens; the routine line after it keeps the seeds' 100.
      expect(estimateTokens(told)).toBeLessThanOrEqual(200);
      expect(estimateTokens(boundary)).toBeLessThanOrEqual(tier === 'OVER_CEILING' ? 100 : 200);
      expect(told).toContain(
        `<context-monitor>\nClaude Code just compacted this session (auto compaction: 167,020 → ${tokens.toLocaleString('en-US')} tokens).\n`,
      );
      expect(boundary).not.toContain('just compacted');
    },
  );

  it('a compaction that brought the context under the ceiling is reported with its numbers, and nothing is asked', () => {
    const text = renderMonitor({
      occupancy: measured(3_505),
      percent: computePercent(3_505, 1_000_000),
      tier: 'NOMINAL',
      window: { tokens: 1_000_000, source: 'model', detail: 'claude-opus-5-5', verified: true },
      ceilingPct: 40,
      recoverySkill: 'context-summarization',
      orchestrationFile: 'ORCHESTRATION.yaml',
      compactAt: 967_000,
      compacted: { trigger: 'manual', preTokens: 93_020, postTokens: 2_647 },
    });
    expect(text).toBe(
      [
        '<context-monitor>',
        'Claude Code just compacted this session (/compact: 93,020 → 2,647 tokens).',
        'Context <1% (3,505 of 1,000,000 tokens, window: model claude-opus-5-5). Tier NOMINAL; ceiling 40%.',
        "Left: 396,495 to the ceiling; 963,495 to Claude Code's compaction (~967,000).",
        '</context-monitor>',
      ].join('\n'),
    );
  });

  describe('on a later prompt, while the newest compaction left the context over the ceiling (issue 20)', () => {
    const opus: ResolvedWindow = { tokens: 1_000_000, source: 'model', detail: 'claude-opus-5-5', verified: true };
    const later = (tier: 'OVER_CEILING' | 'WARNING' | 'CRITICAL' | 'EMERGENCY', tokens: number, recoverySkill: string) =>
      renderMonitor({
        occupancy: measured(tokens),
        percent: computePercent(tokens, opus.tokens),
        tier,
        window: opus,
        ceilingPct: 40,
        recoverySkill,
        orchestrationFile: 'ORCHESTRATION.yaml',
        compactAt: 967_000,
        session: { compactions: 1, last: { id: 'cx-001', trigger: 'auto', ageSeconds: 50 } },
        stuck: { postTokens: 449_400 },
      });

    it.each([
      ['OVER_CEILING', 450_005],
      ['WARNING', 760_000],
      ['CRITICAL', 840_000],
      ['EMERGENCY', 880_000],
    ] as const)(
      '%s: says the compaction left it over, and that the way down is a checkpoint and /clear, never /compact',
      (tier, tokens) => {
        for (const skill of ['context-ceiling:context-summarization', 'context-summarization']) {
          const text = later(tier, tokens, skill);
          expect(text).toContain(
            `Tier ${tier}: a compaction already left 449,400 tokens, over the 40% ceiling, so /compact again will not bring it under. ` +
              `Way down: save a checkpoint with /${skill}, then ask the person to run /clear (the new session resumes from it). Load no new agents or skills`,
          );
          expect(text).not.toMatch(/run \/(compact|context-summarization|context-ceiling)|Recommended actions/i);
          expect(estimateTokens(text)).toBeLessThanOrEqual(tier === 'OVER_CEILING' ? 100 : 200);
          expect(text).not.toContain('…');
        }
      },
    );

    it("OVER_CEILING keeps the seeds' 100 tokens: the history, then the Left line give way before the advice", () => {
      expect(later('OVER_CEILING', 450_005, 'context-summarization')).toBe(
        [
          '<context-monitor>',
          'Context 45% (450,005 of 1,000,000 tokens, window: model). Tier OVER_CEILING: a compaction already left 449,400 tokens, over the 40% ceiling, so /compact again will not bring it under. Way down: save a checkpoint with /context-summarization, then ask the person to run /clear (the new session resumes from it). Load no new agents or skills.',
          '</context-monitor>',
        ].join('\n'),
      );
      expect(later('WARNING', 760_000, 'context-summarization')).toContain(
        "Left: 360,000 over the ceiling; 207,000 to Claude Code's compaction (~967,000).\nCompactions: 1. Last checkpoint: cx-001 (auto compaction, 50s ago).",
      );
    });

    it("no recovery skill installed (the caller names /compact): /clear alone, from the compaction's checkpoint", () => {
      const text = later('WARNING', 760_000, 'compact');
      expect(text).toContain("Way down: ask the person to run /clear (the new session resumes from the compaction's checkpoint).");
      expect(text).not.toMatch(/run \/compact/);
    });

    it('the first prompt after it, the report, adds the way down', () => {
      const text = renderMonitor({
        occupancy: measured(450_005),
        percent: computePercent(450_005, opus.tokens),
        tier: 'OVER_CEILING',
        window: opus,
        ceilingPct: 40,
        recoverySkill: 'context-ceiling:context-summarization',
        orchestrationFile: 'ORCHESTRATION.yaml',
        compactAt: 967_000,
        session: { compactions: 1, last: { id: 'cx-001', trigger: 'auto', ageSeconds: 50 } },
        compacted: { trigger: 'auto', preTokens: 951_030, postTokens: 449_400 },
        stuck: { postTokens: 449_400 },
      });
      expect(text).toContain(
        'do not ask for /compact again, it was just done. Way down: save a checkpoint with /context-ceiling:context-summarization, then ask the person to run /clear (the new session resumes from it). Load no new agents or skills.',
      );
      expect(estimateTokens(text)).toBeLessThanOrEqual(200);
    });

    it('stays within budget for any occupancy, window, ceiling and skill name', () => {
      fc.assert(
        fc.property(
          fc.nat({ max: 2_000_000_000 }),
          fc.integer({ min: 1000, max: 100_000_000 }),
          fc.integer({ min: 1, max: 100 }),
          fc.string({ maxLength: 200 }),
          (tokens, window, ceilingPct, skill) => {
            const percent = computePercent(tokens, window);
            const text = renderMonitor({
              occupancy: measured(tokens),
              percent,
              tier: computeTier(percent, { ...thresholds, ceilingPct }),
              window: { tokens: window, source: 'env', verified: true },
              ceilingPct,
              recoverySkill: skill,
              orchestrationFile: 'ORCHESTRATION.yaml',
              compactAt: compactionPointTokens({ pct: 80 }, window),
              session: { compactions: 123_456, atLeast: true, last: { id: 'cx-123456789', trigger: 'skill', ageSeconds: 99_999_999 } },
              autocompact: { pct: 80, windowTokens: 900_000 },
              stuck: { postTokens: 2_000_000_000 },
            });
            const calm = percent === undefined || percent < thresholds.warningPct;
            expect(estimateTokens(text)).toBeLessThanOrEqual(calm ? 100 : 200);
            expect(text).toMatch(/^<context-monitor>\n[\s\S]*\n<\/context-monitor>$/);
          },
        ),
      );
    });
  });

  it('never reports 0% when occupancy cannot be measured', () => {
    expect(monitorAt({ kind: 'unavailable', reason: 'no-usage' })).not.toMatch(/\b0%/);
    expect(monitorAt({ kind: 'unknown-since-compaction' })).toContain('unknown since compaction');
  });

  it('stays within budget for any occupancy, window and ceiling', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 2_000_000_000 }),
        fc.integer({ min: 1000, max: 100_000_000 }),
        fc.integer({ min: 1, max: 100 }),
        (tokens, window, ceilingPct) => {
          const percent = computePercent(tokens, window);
          const tier = computeTier(percent, { ...thresholds, ceilingPct });
          const text = renderMonitor({
            occupancy: measured(tokens),
            percent,
            tier,
            window: { tokens: window, source: 'env', verified: true },
            ceilingPct,
            recoverySkill: 'context-summarization',
            orchestrationFile: 'ORCHESTRATION.yaml',
            compactAt: compactionPointTokens({ pct: 80 }, window),
            session: { compactions: 123_456, atLeast: true, last: { id: 'cx-123456789', trigger: 'skill', ageSeconds: 99_999_999 } },
            staleness: { kind: 'stale', updatedAt: '2026-01-01T00:00:00.000Z', ageMinutes: 9_999_999, staleMinutes: 30 },
            autocompact: { pct: 80, windowTokens: 900_000 },
            compacted: { trigger: 'auto', preTokens: 2_000_000_000, postTokens: tokens },
          });
          expect(estimateTokens(text)).toBeLessThanOrEqual(200);
          expect(text).toMatch(/^<context-monitor>\n[\s\S]*\n<\/context-monitor>$/);
          expect(text).not.toMatch(/NaN|undefined|Infinity/);
        },
      ),
    );
  });
});

describe('<compaction-alert> (Template 2)', () => {
  it('with the full resumption state of seed 003’s example', async () => {
    const text = alert(checkpointWith(PROJ_001));
    await expect(text).toMatchFileSnapshot('../golden/alert-full.txt');
    expect(estimateTokens(text)).toBeLessThanOrEqual(500);
  });

  it('after the recovery skill’s save, the alert says this compaction is the step it asked for', () => {
    const text = renderCompactionAlert({
      checkpoint: checkpointWith(PROJ_001, { sequence: 3, trigger: 'manual' }),
      checkpointPath: CP_PATH,
      orchestrationPath: '/home/dev/project/ORCHESTRATION.yaml',
      eventNumber: 1,
      eventCount: 1,
      recoverySave: 'cx-002',
    });
    expect(text).toContain(
      'This is the compaction the recovery skill asked for after saving checkpoint cx-002: it is done. Do not ask for /compact again',
    );
    expect(text).not.toContain('COMPACTION EVENT');
    expect(estimateTokens(text)).toBeLessThanOrEqual(500);
  });

  it('the second of two compactions says so', async () => {
    await expect(
      alert(checkpointWith(PROJ_001, { sequence: 2, trigger: 'manual', custom: 'keep the license notes' }), 2, 2),
    ).toMatchFileSnapshot('../golden/alert-event-2-of-2.txt');
  });

  it('without an orchestration file', async () => {
    await expect(
      alert(checkpointWith({ path: '/home/dev/project/ORCHESTRATION.yaml', status: 'missing', header: null, resumption: null })),
    ).toMatchFileSnapshot('../golden/alert-no-orchestration.txt');
  });

  it('with malformed YAML recorded as unavailable', async () => {
    await expect(
      alert(
        checkpointWith({
          path: '/home/dev/project/ORCHESTRATION.yaml',
          status: 'unavailable',
          error: 'malformed YAML: line 4, column 3: Nested mappings are not allowed in compact mappings',
          header: null,
          resumption: null,
        }),
      ),
    ).toMatchFileSnapshot('../golden/alert-malformed-yaml.txt');
  });

  it('at every tier of pre-compaction fill', async () => {
    const fills = [24_000, 90_000, 144_000, 166_000, 180_000];
    const texts = fills.map((tokens) => alert(checkpointWith(PROJ_001, { tokens })));
    await expect(texts.join('\n\n')).toMatchFileSnapshot('../golden/alert-tiers.txt');
    for (const text of texts) expect(estimateTokens(text)).toBeLessThanOrEqual(500);
    expect(texts.map((text) => /tier (\w+)/.exec(text)?.[1])).toEqual(['NOMINAL', 'OVER_CEILING', 'WARNING', 'CRITICAL', 'EMERGENCY']);
  });

  it('a corrupt checkpoint yields the minimal generic alert', async () => {
    const text = alert(undefined, 3, 3);
    await expect(text).toMatchFileSnapshot('../golden/alert-corrupt.txt');
    expect(text).toContain('CONTEXT COMPACTION OCCURRED');
  });
});

describe('<resumption-context> (Template 1)', () => {
  it('with the full resumption state', async () => {
    const text = renderResumptionContext({
      checkpoint: checkpointWith(PROJ_001),
      checkpointPath: CP_PATH,
      orchestrationPath: PROJ_001.path,
      sessionCompactions: 1,
    });
    await expect(text).toMatchFileSnapshot('../golden/resumption-full.txt');
    expect(estimateTokens(text)).toBeLessThanOrEqual(1000);
  });

  it('at every tier of fill at interruption', async () => {
    const texts = [24_000, 90_000, 144_000, 166_000, 180_000].map((tokens) =>
      renderResumptionContext({
        checkpoint: checkpointWith(PROJ_001, { tokens }),
        checkpointPath: CP_PATH,
        orchestrationPath: PROJ_001.path,
        sessionCompactions: 1,
      }),
    );
    await expect(texts.join('\n\n')).toMatchFileSnapshot('../golden/resumption-tiers.txt');
    for (const text of texts) expect(estimateTokens(text)).toBeLessThanOrEqual(1000);
  });

  it('counts compactions: our count wins over an orchestration file that was never updated (never "0" after a compaction)', () => {
    const stale = { ...PROJ_001, resumption: { ...PROJ_001.resumption, compaction_events: { count: 0 } } };
    const text = renderResumptionContext({
      checkpoint: checkpointWith(stale),
      checkpointPath: CP_PATH,
      orchestrationPath: PROJ_001.path,
      sessionCompactions: 2,
    });
    expect(text).toContain('- Compaction events in previous session: 2');
    const higher = { ...PROJ_001, resumption: { ...PROJ_001.resumption, compaction_events: { count: 5 } } };
    expect(
      renderResumptionContext({
        checkpoint: checkpointWith(higher),
        checkpointPath: CP_PATH,
        orchestrationPath: PROJ_001.path,
        sessionCompactions: 2,
      }),
    ).toContain('- Compaction events in previous session: 5');
  });

  it('a checkpoint the recovery skill saved is named as such, and the /compact or /clear it asked for is not asked again', () => {
    for (const orchestration of [PROJ_001, { path: '/p/ORCHESTRATION.yaml', status: 'missing' as const, header: null, resumption: null }]) {
      const text = renderResumptionContext({
        checkpoint: checkpointWith(orchestration, { trigger: 'skill' }),
        checkpointPath: CP_PATH,
        orchestrationPath: orchestration.path,
        sessionCompactions: 0,
      });
      expect(text).toContain('saved by the recovery skill');
      expect(text).toContain('Do not ask for it again.');
      expect(text).not.toMatch(/skill compaction|was compacted \(skill/);
    }
  });

  it('without resumption state', async () => {
    const text = renderResumptionContext({
      checkpoint: checkpointWith({ path: '/p/ORCHESTRATION.yaml', status: 'missing', header: null, resumption: null }),
      checkpointPath: CP_PATH,
      orchestrationPath: '/p/ORCHESTRATION.yaml',
      sessionCompactions: 2,
    });
    await expect(text).toMatchFileSnapshot('../golden/resumption-empty.txt');
  });

  it('a corrupt checkpoint', async () => {
    await expect(
      renderResumptionContext({
        checkpoint: undefined,
        checkpointPath: CP_PATH,
        orchestrationPath: '/p/ORCHESTRATION.yaml',
        sessionCompactions: 1,
      }),
    ).toMatchFileSnapshot('../golden/resumption-corrupt.txt');
  });
});

describe('budgets hold for any resumption section (long decisions, many agents)', () => {
  const longText = fc.string({ minLength: 0, maxLength: 3_000, unit: 'grapheme-composite' });
  const resumption = fc.record(
    {
      current_phase: fc.oneof(fc.nat(), longText),
      current_phase_name: longText,
      current_activity: longText,
      next_step: longText,
      critical_context: longText,
      workflow_status: longText,
      decisions: fc.array(fc.record({ id: fc.string({ maxLength: 20 }), decision: longText, impact: longText, applied: fc.boolean() }), {
        maxLength: 60,
      }),
      agent_summaries: fc.dictionary(fc.string({ minLength: 1, maxLength: 40 }), longText, { maxKeys: 80 }),
      defect_summary: fc.record({ recurring_patterns: fc.array(longText, { maxLength: 40 }) }),
      files_to_read: fc.array(fc.record({ path: fc.string({ minLength: 1, maxLength: 400 }), sections: longText, purpose: longText }), {
        maxLength: 30,
      }),
      // Fields the view reads too (resumption.ts), so their paths are fuzzed, not only the ones above.
      files_in_flight: fc.array(fc.oneof(longText, fc.record({ path: longText })), { maxLength: 40 }),
      next_action: longText,
      recovery_instructions: fc.record({ critical_context: longText }),
      updated_at: fc.oneof(
        longText,
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      ),
      plan_file: longText,
      quality_trajectory: fc.record({
        current_gate: fc.string({ maxLength: 100 }),
        score_history: fc.dictionary(fc.string({ maxLength: 10 }), fc.array(fc.double(), { maxLength: 5 })),
      }),
      junk: fc.anything(),
    },
    { requiredKeys: [] },
  );

  it('compaction alert ≤ 500 tokens, structured fields kept, tags intact', () => {
    fc.assert(
      fc.property(resumption, fc.nat({ max: 3_000_000 }), fc.integer({ min: 1, max: 50 }), (r, tokens, count) => {
        const checkpoint = checkpointWith(
          { path: '/home/dev/project/ORCHESTRATION.yaml', status: 'loaded', header: null, resumption: r as Record<string, unknown> },
          { tokens },
        );
        const text = alert(checkpoint, count, count);
        expect(estimateTokens(text)).toBeLessThanOrEqual(500);
        expect(text.startsWith('<compaction-alert>\n')).toBe(true);
        expect(text.endsWith('\n</compaction-alert>')).toBe(true);
        expect(text.match(/<\/compaction-alert>/g)).toHaveLength(1);
        expect(text).toContain(`CHECKPOINT: ${CP_PATH}`);
        expect(text).toContain('TRIGGER: auto');
        expect(text).toContain('IMMEDIATE ACTIONS:');
        if (count > 1) expect(text).toContain(`COMPACTION EVENT: ${count} of ${count} this session`);
        expect(misprintedNumbers(text, r)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('resumption context ≤ 1000 tokens, tags intact', () => {
    fc.assert(
      fc.property(resumption, (r) => {
        const checkpoint = checkpointWith({
          path: '/p/ORCHESTRATION.yaml',
          status: 'loaded',
          header: { workflow_id: 'W' },
          resumption: r as Record<string, unknown>,
        });
        const text = renderResumptionContext({
          checkpoint,
          checkpointPath: CP_PATH,
          orchestrationPath: '/p/ORCHESTRATION.yaml',
          sessionCompactions: 3,
        });
        expect(estimateTokens(text)).toBeLessThanOrEqual(1000);
        expect(text.startsWith('<resumption-context>\n')).toBe(true);
        expect(text.endsWith('\n</resumption-context>')).toBe(true);
        expect(text.match(/<\/resumption-context>/g)).toHaveLength(1);
        expect(text).toContain('CHECKPOINT: ');
        expect(misprintedNumbers(text, r)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the check for a printed NaN', () => {
  const render = (checkpoint: Checkpoint) =>
    renderResumptionContext({ checkpoint, checkpointPath: CP_PATH, orchestrationPath: '/p/ORCHESTRATION.yaml', sessionCompactions: 3 });
  const saying = {
    next_step: 'NaN ',
    current_activity: 'undefined Infinity',
    files_to_read: [{ path: 'NaN', purpose: 'NaN%' }],
    decisions: Array.from({ length: 40 }, () => ({ decision: '(NaN more in the resumption section)' })),
  };

  it('lets input text say NaN, Infinity and undefined', () => {
    const checkpoint = checkpointWith({ path: '/p/ORCHESTRATION.yaml', status: 'loaded', header: null, resumption: saying });
    const texts = [render(checkpoint), alert(checkpoint, 2, 2)];
    for (const text of texts) expect(text).toContain('NaN');
    for (const text of texts) expect(misprintedNumbers(text, saying)).toEqual([]);
  });

  it('catches a NaN our arithmetic prints', () => {
    const checkpoint = checkpointWith({ path: '/p/ORCHESTRATION.yaml', status: 'loaded', header: null, resumption: saying });
    const broken = { ...checkpoint, context: { ...checkpoint.context, percent: Number.NaN } };
    expect(misprintedNumbers(render(broken), saying)).toEqual([expect.stringMatching(/^- Context fill at interruption: NaN%/)]);
    expect(misprintedNumbers(alert(broken, Number.NaN, 2), saying)).toEqual([
      expect.stringMatching(/^PRE-COMPACTION FILL: NaN%/),
      'COMPACTION EVENT: NaN of 2 this session',
    ]);
    expect(misprintedNumbers('READ THESE FILES IN ORDER:\nNaN. [PRIORITY NaN] a\n- (NaN more in the resumption section)', {})).toHaveLength(
      2,
    );
  });
});

describe('resumption staleness', () => {
  const now = new Date('2026-11-22T05:00:00Z');
  it.each<[string, unknown, string]>([
    ['fresh', { updated_at: '2026-11-22T04:45:00Z' }, 'fresh'],
    ['stale', { updated_at: '2026-11-22T03:00:00Z' }, 'stale'],
    ['missing updated_at', { next_step: 'x' }, 'no-updated-at'],
    ['empty updated_at', { updated_at: '' }, 'no-updated-at'],
    ['not a timestamp', { updated_at: 'yesterday-ish' }, 'bad-updated-at'],
    ['a number', { updated_at: 12 }, 'bad-updated-at'],
    ['no resumption section', undefined, 'no-resumption'],
    ['resumption is a list', [1], 'no-resumption'],
  ])('%s', (_name, resumption, kind) => {
    expect(judgeStaleness(resumption, now, 30).kind).toBe(kind);
  });

  it('the warnings say what to do', async () => {
    const texts = [
      renderStaleness(judgeStaleness({ updated_at: '2026-11-22T03:00:00Z' }, now, 30), 'ORCHESTRATION.yaml'),
      renderStaleness(judgeStaleness({}, now, 30), 'ORCHESTRATION.yaml'),
      renderStaleness({ kind: 'unparseable', error: 'line 2, column 1: bad indentation' }, 'ORCHESTRATION.yaml'),
    ].join('\n\n');
    await expect(texts).toMatchFileSnapshot('../golden/staleness.txt');
    expect(renderStaleness(judgeStaleness({ updated_at: '2026-11-22T04:59:00Z' }, now, 30), 'ORCHESTRATION.yaml')).toBeUndefined();
  });
});
