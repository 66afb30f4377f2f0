/** The field table drives both the zod schema and the env coercer: these tests prove the two judge alike. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { policyJsonSchema } from '../../src/cli/config.js';
import { coerceEnvValue, FIELD_KEYS, POLICY_FIELDS, type FieldKey, type PolicyField } from '../../src/core/policy-fields.js';
import { DEFAULT_VALUES, flattenValues } from '../../src/core/policy.js';
import { policyFileSchema } from '../../src/core/policy-schema.js';
import { ROOT } from '../helpers/sandbox.js';

/** A policy file setting one flat key, so the whole schema (not a copy of a piece) judges it. */
const fileWith = (key: FieldKey, value: unknown) => {
  const [group, sub] = key.split('.');
  return sub === undefined ? { [group!]: value } : { [group!]: { [sub]: value } };
};
const schemaAccepts = (key: FieldKey, value: unknown) => policyFileSchema().safeParse(fileWith(key, value)).success;
const envAccepts = (field: PolicyField, raw: string) => 'value' in coerceEnvValue(field, raw);
const keysOf = (kind: PolicyField['kind']) => FIELD_KEYS.filter((key) => POLICY_FIELDS[key].kind === kind);

describe('the env coercer and the schema agree', () => {
  it.each(keysOf('int'))('%s: a whole number is accepted from the env exactly when the schema accepts it', (key) => {
    const field = POLICY_FIELDS[key] as PolicyField & { kind: 'int'; min: number; max?: number };
    const edges = [
      0,
      1,
      field.min - 1,
      field.min,
      field.min + 1,
      ...(field.max === undefined ? [] : [field.max - 1, field.max, field.max + 1]),
    ];
    const anyInt = fc.oneof(
      fc.constantFrom(...edges.filter((n) => n >= 0)),
      fc.integer({ min: 0, max: 2 * (field.max ?? field.min) }),
      fc.maxSafeNat(),
    );
    fc.assert(
      fc.property(anyInt, (n) => {
        expect(envAccepts(field, String(n))).toBe(schemaAccepts(key, n));
      }),
    );
  });

  it.each(keysOf('names'))(
    '%s: a list the env accepts passes the schema, and a list the schema accepts is read back from the env',
    (key) => {
      const field = POLICY_FIELDS[key];
      const name = fc.stringMatching(/^[a-z :,/-]{0,8}$/);
      fc.assert(
        fc.property(fc.array(name, { maxLength: 4 }), (list) => {
          const raw = list.join(',');
          const coerced = coerceEnvValue(field, raw);
          if ('value' in coerced) expect(schemaAccepts(key, coerced.value)).toBe(true);
          if (raw !== '' && schemaAccepts(key, list)) expect(coerced).toEqual({ value: list });
        }),
      );
    },
  );

  it.each(keysOf('tools'))(
    '%s: pairs the env accepts pass the schema, and a record the schema accepts is read back from the env',
    (key) => {
      const field = POLICY_FIELDS[key];
      const tool = fc.stringMatching(/^[A-Za-z_.: =-]{1,6}$/);
      const action = fc.constantFrom('auto', 'warn', 'block', 'off', 'deny', 'Warn');
      fc.assert(
        fc.property(fc.dictionary(tool, action, { minKeys: 1, maxKeys: 3 }), (tools) => {
          const raw = Object.entries(tools)
            .map(([name, act]) => `${name}=${act}`)
            .join(',');
          const coerced = coerceEnvValue(field, raw);
          if ('value' in coerced) expect(schemaAccepts(key, coerced.value)).toBe(true);
          if (schemaAccepts(key, tools)) expect(coerced).toEqual({ value: tools });
        }),
      );
    },
  );

  it.each([...keysOf('switch'), ...keysOf('debug'), ...keysOf('text')])('%s: whatever the env accepts passes the schema', (key) => {
    const field = POLICY_FIELDS[key];
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('on', 'off', '1', '0', '/tmp/x.log', 'true'), fc.string({ minLength: 1 })), (raw) => {
        const coerced = coerceEnvValue(field, raw);
        if ('value' in coerced) expect(schemaAccepts(key, coerced.value)).toBe(true);
      }),
    );
  });

  it.each<[string, boolean | undefined]>([
    ['on', true],
    ['off', false],
    ['OFF', undefined],
    ['On', undefined],
    ['false', undefined],
    ['0', undefined],
    ['true', undefined],
    ['1', undefined],
  ])('a switch reads only the literals on and off: %s', (raw, value) => {
    for (const key of keysOf('switch')) {
      const coerced = coerceEnvValue(POLICY_FIELDS[key], raw);
      expect(coerced).toEqual(value === undefined ? { why: 'only "on" or "off" is recognised' } : { value });
    }
  });
});

describe('the schema is the only place defaults and bounds are written', () => {
  it('every default passes the schema', () => {
    expect(policyFileSchema().safeParse(DEFAULT_VALUES)).toMatchObject({ success: true });
  });

  it('the table and the schema name the same keys', () => {
    const json = policyJsonSchema() as { properties: Record<string, { properties?: Record<string, unknown> }> };
    const schemaKeys = Object.entries(json.properties)
      .filter(([key]) => key !== '$schema' && key !== 'extends')
      .flatMap(([key, value]) => (key === 'tiers' ? Object.keys(value.properties ?? {}).map((sub) => `${key}.${sub}`) : [key]));
    expect(schemaKeys.sort()).toEqual([...FIELD_KEYS].sort());
  });

  it('policies/default.json sets each value to the schema default', () => {
    const preset = JSON.parse(readFileSync(join(ROOT, 'policies', 'default.json'), 'utf8'));
    const defaults = new Map(flattenValues(DEFAULT_VALUES));
    const set = flattenValues(preset);
    expect(set.length).toBeGreaterThan(0);
    for (const [key, value] of set) expect([key, value]).toEqual([key, defaults.get(key)]);
    // Every gating default is in the preset, so `extends: "default"` resets what the guard decides with.
    for (const key of [
      'enabled',
      'strict',
      'ceilingPct',
      'recoverySkills',
      'tools.Agent',
      'tools.Task',
      'tools.Skill',
      'tiers.warningPct',
    ]) {
      expect(set.map(([k]) => k)).toContain(key);
    }
  });

  it('docs/configuration.md names each field’s variable and default', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
    for (const key of FIELD_KEYS) {
      const field = POLICY_FIELDS[key];
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${key}\` |`));
      expect(row, key).toBeDefined();
      expect(row, key).toContain(`\`${field.env}\``);
      const shown =
        field.default === undefined
          ? undefined
          : Array.isArray(field.default)
            ? field.default.join(', ')
            : typeof field.default === 'object'
              ? JSON.stringify(field.default)
              : String(field.default);
      if (shown !== undefined) expect(row!.split(' | ')[2], key).toContain(shown);
    }
  });
});
