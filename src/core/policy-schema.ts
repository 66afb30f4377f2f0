/**
 * The policy file's schema, built from the field table (policy-fields.ts) that
 * also drives the environment coercer and the policy's types: a field is declared once. zod/mini keeps the bundle small (full
 * zod costs ~20 ms of start-up); `policies/schema.json` is generated from this.
 */
import * as z from 'zod/mini';
import { describeField } from './policy-field-texts.js';
import {
  ABSOLUTE_PATH,
  FIELD_KEYS,
  POLICY_FIELDS,
  POLICY_GROUPS,
  PRESET_NAMES,
  SKILL_NAME,
  TOOL_ACTIONS,
  TOOL_NAME,
  type FieldKey,
  type IntField,
  type TextField,
  type PolicyField,
  type PolicyFile,
} from './policy-fields.js';

const describe = (key: FieldKey) => z.describe(describeField(key));
const integer = (key: FieldKey, field: IntField) =>
  z.number().check(z.int(), z.minimum(field.min), ...(field.max === undefined ? [] : [z.maximum(field.max)]), describe(key));
const text = (key: FieldKey, field: TextField) =>
  z.string().check(z.minLength(1), ...(field.absolute ? [z.regex(ABSOLUTE_PATH)] : []), describe(key));
const onOff = (key: FieldKey) => z.boolean().check(describe(key));

/**
 * Keys with their meaning; every key is optional in a file and also has an
 * environment variable. Built on first use: most hook runs find no policy file.
 */
export function policyFileSchema() {
  cachedSchema ??= buildPolicyFileSchema();
  return cachedSchema;
}

let cachedSchema: ReturnType<typeof buildPolicyFileSchema> | undefined;

/** One field's schema, by its kind. */
function fieldSchema(key: FieldKey) {
  const field: PolicyField = POLICY_FIELDS[key];
  switch (field.kind) {
    case 'switch':
    case 'debug':
      return onOff(key);
    case 'int':
      return integer(key, field);
    case 'text':
      return text(key, field);
    case 'names':
      return z.array(z.string().check(z.minLength(1), z.regex(SKILL_NAME))).check(z.minLength(1), describe(key));
    case 'tools':
      return z.record(z.string().check(z.regex(TOOL_NAME)), z.enum(TOOL_ACTIONS)).check(describe(key));
  }
}

/** The file's keys in field order; a dotted key (`tiers.warningPct`) is a key of its group's strict object. */
function buildPolicyFileSchema(): z.ZodMiniType<PolicyFile> {
  const shape: Record<string, z.ZodMiniType> = {
    $schema: z.optional(z.string().check(z.describe('Path or URL of this JSON Schema, for editors.'))),
    extends: z.optional(
      z.enum(PRESET_NAMES).check(z.describe("A preset from the package's policies/ folder to start from; this file's keys win over it.")),
    ),
  };
  const groups: Record<string, Record<string, z.ZodMiniType>> = {};
  for (const key of FIELD_KEYS) {
    const [group, sub] = key.split('.') as [string, string | undefined];
    if (sub === undefined) shape[key] = z.optional(fieldSchema(key));
    else {
      // The group's place in field order; its object is built once all its keys are known.
      shape[group] ??= z.never();
      groups[group] = { ...groups[group], [sub]: z.optional(fieldSchema(key)) };
    }
  }
  for (const [group, keys] of Object.entries(groups))
    shape[group] = z.optional(z.strictObject(keys).check(z.describe(POLICY_GROUPS[group as keyof typeof POLICY_GROUPS])));
  return z.strictObject(shape) as unknown as z.ZodMiniType<PolicyFile>;
}

type Issue = { readonly code?: string; readonly path: readonly PropertyKey[]; readonly message: string };

/** zod issues as `key: message` lines, worded without loading a locale (the hook bundle stays small). */
export function formatPolicyIssues(issues: readonly Issue[]): string[] {
  return issues.map((issue) => {
    const where = formatPath(issue.path);
    return where ? `${where}: ${describeIssue(issue)}` : describeIssue(issue);
  });
}

function describeIssue(plain: Issue): string {
  const issue = plain as Issue & Record<string, unknown>;
  const list = (values: unknown) => (Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(', ') : '');
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown key${(issue.keys as unknown[]).length > 1 ? 's' : ''} ${list(issue.keys)}`;
    case 'invalid_type':
      return `must be ${issue.expected === 'int' ? 'a whole number' : `a${/^[aeiou]/.test(String(issue.expected)) ? 'n' : ''} ${String(issue.expected)}`}`;
    case 'too_big':
      return issue.origin === 'array' ? `must have at most ${String(issue.maximum)} entries` : `must be at most ${String(issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'array') return `must have at least ${String(issue.minimum)} entr${issue.minimum === 1 ? 'y' : 'ies'}`;
      if (issue.origin === 'string') return 'must not be empty';
      return `must be at least ${String(issue.minimum)}`;
    case 'invalid_value':
      return `must be one of ${list(issue.values)}`;
    case 'invalid_format':
      return issue.pattern === String(ABSOLUTE_PATH) ? 'must be an absolute path' : 'must be a name without spaces or commas';
    case 'invalid_key':
      return 'tool names may use letters, digits, "_", ".", ":" and "-" only';
    default:
      return issue.message;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}
