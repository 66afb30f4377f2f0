/**
 * `config set` and `config unset` as plain data: which key of a policy file a name means, the value its text
 * stands for (the environment's coercion, from the field table), and the file's object with it changed.
 * No I/O: config-write.ts reads, validates and writes.
 */
import {
  coerceEnvValue,
  FIELD_KEYS,
  POLICY_FIELDS,
  PRESET_NAMES,
  TOOL_ACTIONS,
  TOOL_NAME,
  type Coerced,
  type FieldKey,
} from '../core/policy-fields.js';
import { cliMessage } from './messages.js';

/**
 * A key as a path into the file: `ceilingPct` → [ceilingPct], `tiers.warningPct` → [tiers, warningPct], `tools.Skill` → [tools, Skill].
 * `preset`: the file's `extends`, a preset from the package's policies/ folder.
 */
export type EditKey = { key: string; path: readonly [string] | readonly [string, string]; kind: 'field' | 'tool' | 'group' | 'preset' };

/** The file key naming a preset to start from (policy-schema.ts). */
const EXTENDS = 'extends';

/** Groups `config unset` removes whole (`tools` is a field of its own). */
const GROUPS = ['tiers'];

/** The key a name means, or undefined; `group` keys (`tiers`) only for unset. */
export function resolveEditKey(name: string, forUnset: boolean): EditKey | undefined {
  if (name === EXTENDS) return { key: name, path: [name], kind: 'preset' };
  if ((FIELD_KEYS as readonly string[]).includes(name)) {
    const dot = name.indexOf('.');
    return { key: name, path: dot < 0 ? [name] : [name.slice(0, dot), name.slice(dot + 1)], kind: 'field' };
  }
  if (name.startsWith('tools.') && TOOL_NAME.test(name.slice('tools.'.length))) {
    return { key: name, path: ['tools', name.slice('tools.'.length)], kind: 'tool' };
  }
  if (forUnset && GROUPS.includes(name)) return { key: name, path: [name], kind: 'group' };
  return undefined;
}

/** Every key set and unset take, as an error message lists them. */
export function editableKeys(): string {
  return [...FIELD_KEYS, 'tools.<Tool>', EXTENDS].join(', ');
}

/**
 * The value `raw` stands for, coerced as the key's environment variable is (`35`, `block`, `a,b`, `on`).
 * `debug` takes on or off only: a file for diagnostics is named by DEV_TEAM_CONTEXT_DEBUG alone.
 */
export function coerceEditValue(target: EditKey, raw: string): Coerced {
  if (target.kind === 'preset')
    return (PRESET_NAMES as readonly string[]).includes(raw)
      ? { value: raw }
      : { why: cliMessage('config.preset-name', { presets: PRESET_NAMES.join(', ') }) };
  if (target.kind === 'tool')
    return (TOOL_ACTIONS as readonly string[]).includes(raw)
      ? { value: raw }
      : { why: cliMessage('config.tool-action', { actions: TOOL_ACTIONS.join('|') }) };
  const field = POLICY_FIELDS[target.key as FieldKey];
  if (field.kind === 'debug') {
    if (raw === 'on' || raw === '1') return { value: true };
    return raw === 'off' || raw === '0' ? { value: false } : { why: cliMessage('config.debug-on-off') };
  }
  return coerceEnvValue(field, raw);
}

export type FileObject = Record<string, unknown>;

/** The value at the key's path in a file's object (undefined when it is not set there). */
export function valueAt(file: FileObject, target: EditKey): unknown {
  const [top, sub] = target.path;
  const value = file[top];
  if (sub === undefined) return value;
  return isObject(value) ? value[sub] : undefined;
}

/**
 * The file's object with the key set to `value`, or removed when `value` is undefined. Other keys keep
 * their place; a new key goes last; a group left empty is removed with its last key.
 */
export function applyEdit(file: FileObject, target: EditKey, value: unknown): FileObject {
  const [top, sub] = target.path;
  const next: FileObject = { ...file };
  if (sub === undefined) {
    if (value === undefined) delete next[top];
    else next[top] = value;
    return next;
  }
  const group: FileObject = isObject(file[top]) ? { ...(file[top] as FileObject) } : {};
  if (value === undefined) delete group[sub];
  else group[sub] = value;
  if (Object.keys(group).length === 0) delete next[top];
  else next[top] = group;
  return next;
}

export function isObject(value: unknown): value is FileObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
