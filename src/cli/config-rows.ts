/** The configuration in force as rows (key, value, source), as `config show`, `get`, `set` and `unset` print them. */
import { describeSource, flattenValues, type Source } from '../core/policy.js';
import { POLICY_FIELD_TEXTS } from '../core/policy-field-texts.js';
import { FIELD_KEYS } from '../core/policy-fields.js';
import { sanitizeText } from '../core/sanitize.js';
import type { LoadedConfig } from '../io/config.js';

export type Row = { key: string; value: unknown; source: Source };

export function configRows(config: LoadedConfig): Row[] {
  const values = flattenValues(config.policy);
  const out: Row[] = values.map(([key, value]) => ({ key, value, source: config.sources[key] ?? { layer: 'default' } }));
  // Fields unset by default (window, stateDir) still get a row saying what applies instead.
  for (const key of FIELD_KEYS) {
    const { unsetText } = POLICY_FIELD_TEXTS[key];
    if (out.some((row) => row.key === key) || unsetText === undefined) continue;
    out.push({ key, value: null, source: { layer: 'default', detail: unsetText } });
  }
  return out;
}

/** The rows of `key` itself or, for a group (`tools`, `tiers`), of every key in it. */
export function rowsOf(rows: readonly Row[], key: string): Row[] {
  return rows.filter((row) => row.key === key || row.key.startsWith(`${key}.`));
}

/** `key = value  (source)`, as `config get` prints a row; values from files reach the terminal sanitised. */
export function formatRow(row: Row): string {
  return `${row.key} = ${sanitizeText(formatValue(row.value))}  (${describeSource(row.source)})`;
}

/** A row in `--json` output. */
export function jsonRow({ key, value, source }: Row) {
  return { key, value, source: source.layer, detail: source.detail ?? null };
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '(unset)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
