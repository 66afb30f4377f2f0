/** The invariants every hook run must keep, whatever its input (issue: hardening). */
import { expect } from 'vitest';

export type Outcome = { exitCode: number; stdout: string; stderr: string };

/**
 * The variables whose values a hook may quote back as given: names of files and folders, not numbers it computes
 * (the project folder too: a policy file named relative to it is quoted under it, `<project>/-0%/`).
 */
const QUOTED_VARIABLES = [
  'CLAUDE_PROJECT_DIR',
  'DEV_TEAM_CONTEXT_ORCHESTRATION',
  'DEV_TEAM_CONTEXT_POLICY',
  'DEV_TEAM_CONTEXT_STATE_DIR',
  'DEV_TEAM_CONTEXT_DEBUG',
];

/** What of `env` a hook may quote back (for expectWellBehaved's `operatorValues`). */
export const quotedValues = (env: Readonly<Record<string, string | undefined>>) => QUOTED_VARIABLES.map((name) => env[name]);

const EVENT_NAMES: Record<string, string> = {
  'pre-tool-use': 'PreToolUse',
  'user-prompt-submit': 'UserPromptSubmit',
  'session-start': 'SessionStart',
  'post-tool-use': 'PostToolUse',
};

/** PreCompact's plain text goes to Claude Code's summariser, which cuts it at this many characters. */
const PRECOMPACT_OUTPUT_LIMIT = 10_000;

/**
 * Exit 0; stdout empty or one JSON object of the documented shape (a guard's block is a `deny`); no stack trace, undefined or NaN.
 * `operatorValues`: what the run's environment said (a file name the operator chose, e.g. an orchestration file named
 * `-0%`, is quoted back as given): taken out of the text before it is searched for numbers we computed wrong.
 */
export function expectWellBehaved(event: string, outcome: Outcome, operatorValues: readonly (string | undefined)[] = []): void {
  expect(outcome.exitCode).toBe(0);
  const quoted = operatorValues.filter((value): value is string => typeof value === 'string' && value.trim().length > 0);
  const withoutQuoted = (text: string) => quoted.reduce((rest, value) => rest.split(value).join('\u00ab\u00bb'), text);
  for (const text of [outcome.stdout, outcome.stderr].map(withoutQuoted)) {
    expect(text).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)|undefined|NaN|Infinity|\[object Object\]/);
    expect(text).not.toMatch(/-\d[\d,]*(%| of | tokens)/); // a negative fill or token count
    expect(text).not.toMatch(/\b(10[1-9]|1[1-9]\d|[2-9]\d\d|\d{4,})%/); // a fill over 100 %
  }
  if (event === 'save-checkpoint') {
    // run inside the recovery skill, whose text it joins: two plain lines, what was saved and what to do next
    expect(outcome.stdout).toMatch(/^context-ceiling: (checkpoint cx-\d+ saved|no checkpoint saved)[^\n]*\n[^\n]+\n$/);
    return;
  }
  if (outcome.stdout === '') return;
  expect(outcome.stdout.endsWith('\n')).toBe(true);
  expect(event).not.toBe('post-compact'); // PostCompact output reaches only the person: it prints nothing
  if (event === 'pre-compact') {
    expect(outcome.stdout.startsWith('context-ceiling: ')).toBe(true); // plain text, never JSON
    expect(outcome.stdout.length).toBeLessThanOrEqual(PRECOMPACT_OUTPUT_LIMIT);
    return;
  }
  expect(outcome.stdout.trimEnd().includes('\n')).toBe(false); // exactly one line
  const output = JSON.parse(outcome.stdout) as Record<string, unknown>;
  expect(typeof output).toBe('object');
  // The person hears the guard, and the one-time notice that checkpoints went to the private state (issue 19).
  const allowed = ['pre-tool-use', 'session-start', 'user-prompt-submit'].includes(event)
    ? ['systemMessage', 'hookSpecificOutput']
    : ['hookSpecificOutput'];
  expect(Object.keys(output).every((key) => allowed.includes(key))).toBe(true);
  if ('systemMessage' in output) expect(typeof output.systemMessage).toBe('string');
  if ('hookSpecificOutput' in output) {
    const specific = output.hookSpecificOutput as Record<string, unknown>;
    expect(specific.hookEventName).toBe(EVENT_NAMES[event]);
    if (specific.permissionDecision !== undefined) {
      expect(event).toBe('pre-tool-use');
      expect(specific.permissionDecision).toBe('deny');
      expect(specific.permissionDecisionReason).toMatch(/^Blocked by the context ceiling/);
      expect(outcome.stderr).toMatch(/^context-ceiling: blocked .+\n/);
      return;
    }
    expect(typeof specific.additionalContext).toBe('string');
    expect(Object.keys(specific).sort()).toEqual(['additionalContext', 'hookEventName']);
  }
}
