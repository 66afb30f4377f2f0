/**
 * What each policy field means, in words, for `config show`, the schema's descriptions and the docs: kept apart from
 * the field table (policy-fields.ts), which every hook builds at load and none of them words (the words doubled the
 * table's cost: ~0.1 M instructions of every hook run on Node 26, measured). Keyed as the table is: a field without
 * its words, or words for no field, fails the type check.
 */
import { type FieldKey, POLICY_FIELDS } from './policy-fields.js';

export type FieldText = {
  what: string;
  /** How the variable is written, after its name (`=off|on`, `, comma-separated`). */
  envHint?: string;
  /** A sentence between the variable and the default. */
  note?: string;
  /** What applies while a field without a default is unset. */
  unsetText?: string;
};

export const POLICY_FIELD_TEXTS: Readonly<Record<FieldKey, FieldText>> = {
  enabled: { envHint: '=off|on', what: 'Master switch for every hook' },
  strict: { envHint: '=on|off', what: 'Block (exit 2) instead of warn at the ceiling, for tools whose action is "auto"' },
  ceilingPct: { what: 'Guard ceiling as a percent of the window' },
  window: {
    what: "Context window in tokens, for a model Claude Code's model table does not know",
    unsetText: "the session's own: Claude Code's report for it, else its model's window",
  },
  tools: {
    envHint: '="Skill=block,Agent=warn"',
    what: 'Per-tool action: "auto" (block when strict, else warn), "warn", "block" or "off"; merged over the default, and tools not listed are never gated',
  },
  recoverySkills: {
    envHint: ', comma-separated',
    what: 'Skills never gated, with or without a plugin prefix; the first is the one the guard recommends',
  },
  'tiers.warningPct': { what: 'WARNING tier starts here' },
  'tiers.criticalPct': { what: 'CRITICAL tier starts here' },
  'tiers.emergencyPct': { what: 'EMERGENCY tier starts here' },
  maxScanBytes: { what: 'Most transcript bytes a hook reads backwards looking for the latest usage' },
  stateDir: {
    what: 'Private state directory (warning dedup, status line reports, learned windows, the event log); an absolute path',
    note: 'Honoured only in ~/.claude/context-ceiling.json: a project file cannot move it.',
    unsetText: '${XDG_STATE_HOME:-~/.local/state}/context-ceiling',
  },
  debug: { envHint: '=1, or a file path to append to', what: 'Write diagnostics to stderr' },
  monitor: { envHint: '=off|on', what: 'Inject the <context-monitor> status on every prompt', note: 'Compaction alerts are not affected.' },
  orchestrationFile: {
    what: "The orchestrator's state file whose resumption: section checkpoints record, relative to the project",
  },
  resumptionStaleMinutes: {
    what: 'After a write to the orchestration file, warn when resumption.updated_at is older than this many minutes',
  },
  bridgeMaxAgeMinutes: { what: 'How old the window a status line report recorded for the session may be and still be used' },
};

/** The text a schema `.describe()` carries: meaning, variable, default. */
export function describeField(key: FieldKey): string {
  const field = POLICY_FIELDS[key];
  const text = POLICY_FIELD_TEXTS[key];
  const note = text.note ? ` ${text.note}` : '';
  return `${text.what} (env ${field.env}${text.envHint ?? ''}).${note} Default${formatDefault(key)}.`;
}

function formatDefault(key: FieldKey): string {
  const value: unknown = POLICY_FIELDS[key].default;
  if (value === undefined) {
    const unset = POLICY_FIELD_TEXTS[key].unsetText;
    return unset === undefined ? ' none' : `: ${unset}`;
  }
  if (Array.isArray(value)) return ` ${value.join(', ')}`;
  return ` ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`;
}
