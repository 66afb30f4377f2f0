/**
 * The session docs/calibration.md draws with `report` (`npm run docs:calibration` regenerates the chart and its
 * picture; test/blackbox/calibration-doc.test.ts keeps the page equal to what the code draws now). Shaped like
 * the team session that page first showed: 106 turns on a 200,000 window, rising past the ceiling into the top
 * tier, auto-compacted by Claude Code after turn 62, then rising again; ten capability loads.
 */
import { aTranscript } from './transcript-builder.js';

export const CALIBRATION_SESSION = 'billing-refactor';
const MODEL = 'claude-haiku-4-5';
const WINDOW = 200_000;

/** Turns making a gated call: which tool, and the skill or agent it loads. */
const LOADS: Record<number, { name: string; input: Record<string, unknown> }> = {
  8: { name: 'Skill', input: { skill: 'billing-domain' } },
  17: { name: 'Agent', input: { description: 'Map the invoice module', prompt: 'Map it', subagent_type: 'Explore' } },
  31: { name: 'Skill', input: { skill: 'test-strategy' } },
  41: { name: 'Agent', input: { description: 'Review the tax rules', prompt: 'Review', subagent_type: 'general-purpose' } },
  48: { name: 'Skill', input: { skill: 'deep-dive' } },
  55: { name: 'Agent', input: { description: 'Find every rounding call', prompt: 'Find', subagent_type: 'Explore' } },
  60: { name: 'Skill', input: { skill: 'migration-plan' } },
  74: { name: 'Agent', input: { description: 'Check the new schema', prompt: 'Check', subagent_type: 'Explore' } },
  86: { name: 'Skill', input: { skill: 'deep-dive' } },
  101: { name: 'Agent', input: { description: 'Review the diff', prompt: 'Review', subagent_type: 'general-purpose' } },
};

/** Occupancy of a turn, percent of the window: 9 % to 83.1 % by turn 62 (Claude Code compacts at 83.5 %), then 6 % to 62 %. */
function percentAt(turn: number): number {
  if (turn <= 62) return 9 + (83.105 - 9) * ((turn - 1) / 61) ** 1.15;
  return 6 + (62 - 6) * ((turn - 63) / 43) ** 1.05;
}

/** The session's transcript (JSONL), the same bytes on every call. */
export function calibrationSession(): string {
  const t = aTranscript(CALIBRATION_SESSION).modelAttachment(MODEL).user('Refactor the billing module');
  for (let turn = 1; turn <= 106; turn++) {
    const tokens = Math.round((percentAt(turn) / 100) * WINDOW);
    const load = LOADS[turn];
    t.assistant({
      model: MODEL,
      cacheRead: tokens - 1_005,
      cacheCreation: 1_000,
      toolUse: load ?? { name: 'Read', input: { file_path: `src/billing/part-${turn}.ts` } },
    }).toolResult(400);
    if (turn === 62) t.compactBoundary({ trigger: 'auto', preTokens: tokens + 700, postTokens: 11_400 });
  }
  return t.toString();
}
