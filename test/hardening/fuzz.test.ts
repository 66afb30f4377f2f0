/**
 * Property tests for every hook entry, in-process (thousands of runs): any
 * stdin, any transcript, any policy file, any orchestration file, any env.
 * process-fuzz.test.ts runs a sample of the same through the real processes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ENV } from '../../src/core/env-names.js';
import type { HookHost } from '../../src/runtime/host.js';
import type { EntryName } from '../../src/core/hook-table.js';
import { HANDLERS } from '../../src/hooks/handlers.js';
import { runHookEvent } from '../../src/runtime/run.js';
import { parsePolicyText } from '../../src/io/policy-parse.js';
import { parseYamlText } from '../../src/io/yaml-parse.js';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { recordAsOurs } from '../helpers/own-checkpoints.js';
import { expectWellBehaved, quotedValues } from './invariants.js';

const root = mkdtempSync(join(tmpdir(), 'cc-fuzz-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

/** Values a hostile or broken world produces: odd numbers, strings for numbers, NaN-producing values, huge values. */
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, 1.5),
  fc.constantFrom('5', '', 'NaN', '1e9', null, true, [], {}),
);
const usage = fc.record(
  {
    input_tokens: hostileNumber,
    cache_read_input_tokens: hostileNumber,
    cache_creation_input_tokens: hostileNumber,
    output_tokens: hostileNumber,
  },
  { requiredKeys: [] },
);
const safeText = fc.string({ maxLength: 40 }).filter((s) => !/undefined|NaN|Infinity|object Object/.test(s));
const record = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom('assistant', 'user', 'progress', 'system', 'attachment'),
      isSidechain: fc.oneof(fc.boolean(), fc.anything()),
      isApiErrorMessage: fc.boolean(),
      agentId: fc.oneof(fc.constant('a1'), safeText),
      subtype: fc.constantFrom('compact_boundary', 'other'),
      compactMetadata: fc.record({ postTokens: hostileNumber, preTokens: hostileNumber, trigger: fc.anything() }, { requiredKeys: [] }),
      message: fc.record(
        {
          id: safeText,
          model: fc.oneof(fc.constant('claude-opus-5-5'), fc.constant('<synthetic>'), fc.anything()),
          usage,
          content: fc.anything(),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);
const realTurn = fc
  .tuple(fc.nat({ max: 400_000 }), fc.constantFrom('claude-opus-5-5', 'claude-haiku-5'))
  .map(([tokens, model]) => aTranscript().assistant({ cacheRead: tokens, model }).toString().trim());
const transcriptLine = fc.oneof(
  { weight: 3, arbitrary: realTurn },
  record.map((r) => JSON.stringify(r)),
  fc.string(),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')), // invalid UTF-8 once re-encoded
  record.map((r) => JSON.stringify(r).slice(0, 30)), // torn
);
const transcript = fc
  .tuple(fc.array(transcriptLine, { maxLength: 30 }), fc.option(realTurn, { freq: 5 }))
  .map(([lines, last]) => [...lines, ...(last ? [last] : [])].join('\n'));

const envValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('on', 'off', '1', '0', '-5', '40', '1000000', '1e6', ' ', '\u0000', 'x'.repeat(5000)),
);
const strictness = fc.oneof(
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 2, arbitrary: fc.constant({ [ENV.strict]: 'on' }) },
  { weight: 3, arbitrary: fc.constant({ [ENV.strict]: 'on', [ENV.ceilingPct]: '5' }) },
);
const env = fc
  .tuple(
    strictness,
    fc.dictionary(
      fc.constantFrom(
        ...Object.values(ENV).filter((name) => name !== ENV.stateDir && name !== ENV.debug && name !== ENV.policy),
        'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE',
      ),
      envValue,
    ),
  )
  .map(([base, extra]) => ({ ...extra, ...base }) as Record<string, string>);
const policyText = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string(),
  fc
    .record(
      { ceilingPct: hostileNumber, window: hostileNumber, strict: fc.anything(), tools: fc.anything(), tiers: fc.anything() },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
);
const yamlText = fc.oneof(
  fc.constant(undefined),
  fc.string(),
  fc.constantFrom(
    'resumption:\n  next_step: [unclosed\n',
    'a: &a [*a, *a]\n',
    'resumption:\n  updated_at: 2020-01-01T00:00:00Z\n  decisions: [{id: 1}]\n',
    '- just\n- a list\n',
  ),
);

/** Hook stdin: real-shaped inputs with hostile values, arbitrary JSON, arbitrary text, deep nesting, truncation. */
function stdinFor(transcriptPath: string) {
  const real = fc.record(
    {
      session_id: fc.oneof({ weight: 4, arbitrary: fc.constant('s-1') }, safeText, fc.constant('../../etc'), fc.anything()),
      transcript_path: fc.oneof({ weight: 4, arbitrary: fc.constant(transcriptPath) }, fc.string(), fc.anything()),
      cwd: fc.oneof({ weight: 4, arbitrary: fc.constant(root) }, fc.string(), fc.anything()),
      tool_name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('Agent', 'Task', 'Skill', 'Read', 'Write', 'Edit') }, fc.anything()),
      tool_input: fc.oneof(
        fc.record(
          { skill: safeText, subagent_type: safeText, file_path: fc.oneof(safeText, fc.constant(join(root, 'ORCHESTRATION.yaml'))) },
          { requiredKeys: [] },
        ),
        fc.anything(),
      ),
      agent_id: fc.option(fc.oneof(fc.constant('a1'), safeText, fc.anything()), { freq: 4, nil: undefined }),
      source: fc.oneof(fc.constantFrom('startup', 'compact', 'resume', 'clear'), fc.anything()),
      trigger: fc.oneof(fc.constantFrom('auto', 'manual'), fc.anything()),
      custom_instructions: fc.anything(),
      prompt: fc.string(),
    },
    { requiredKeys: ['session_id', 'transcript_path', 'tool_name'] },
  );
  return fc.oneof(
    { weight: 6, arbitrary: real.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string() },
    { weight: 1, arbitrary: real.map((v) => JSON.stringify(v)).chain((s) => fc.nat({ max: s.length }).map((n) => s.slice(0, n))) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 200_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`) },
  );
}

function world(policy: string | undefined, yaml: string | undefined, lines: string) {
  const dir = join(root, `w${++counter}`);
  mkdirSync(join(dir, 'project', '.claude'), { recursive: true });
  mkdirSync(join(dir, 'home'), { recursive: true });
  if (policy !== undefined) writeFileSync(join(dir, 'project', '.claude', 'context-ceiling.json'), policy);
  if (yaml !== undefined) writeFileSync(join(dir, 'project', 'ORCHESTRATION.yaml'), yaml);
  const transcriptPath = join(dir, 't.jsonl');
  writeFileSync(transcriptPath, lines);
  // a session with pending checkpoints, one corrupt, for the alert paths
  const checkpoints = join(dir, 'project', '.claude', 'context-ceiling', 'checkpoints', 's-1');
  mkdirSync(checkpoints, { recursive: true });
  writeFileSync(join(checkpoints, 'cx-001-checkpoint.json'), lines.slice(0, 200));
  // recorded as ours, as PreCompact records what it writes: only such a checkpoint is ever shown
  recordAsOurs(join(dir, 'state'), join(dir, 'project'), join(checkpoints, 'cx-001-checkpoint.json'), 's-1');
  return { dir, transcriptPath };
}

function context(dir: string, envValues: Record<string, string>): HookHost {
  return {
    env: { ...envValues, CLAUDE_PROJECT_DIR: join(dir, 'project'), [ENV.stateDir]: join(dir, 'state') },
    cwd: join(dir, 'project'),
    home: join(dir, 'home'),
    writeStderr: () => {},
    parsePolicy: parsePolicyText,
    parseYaml: parseYamlText,
    now: () => new Date('2026-11-22T05:00:00Z'),
  };
}

describe.each(Object.keys(HANDLERS) as EntryName[])('%s survives anything', (event) => {
  it('arbitrary stdin, transcript, policy file, orchestration file and environment', () => {
    const seen = { silent: 0, output: 0, blocked: 0 };
    fc.assert(
      fc.property(transcript, policyText, yamlText, env, (lines, policy, yaml, envValues) => {
        const { dir, transcriptPath } = world(policy, yaml, lines);
        fc.assert(
          fc.property(stdinFor(transcriptPath), (stdin) => {
            const started = Date.now();
            // Called directly, not through runHookEvent's catch-all: every failure must be handled where it happens.
            const outcome = HANDLERS[event]!(stdin, context(dir, envValues));
            expectWellBehaved(event, outcome, quotedValues(envValues));
            if (outcome.stdout.includes('"permissionDecision":"deny"')) seen.blocked += 1;
            else if (outcome.stdout) seen.output += 1;
            else seen.silent += 1;
            if (Date.now() - started > 5_000) throw new Error('took over 5 s');
          }),
          // One well-formed call always runs too, so every path that speaks is reached, not only by luck.
          {
            numRuns: 8,
            examples: [
              [
                JSON.stringify({
                  session_id: 's-1',
                  transcript_path: transcriptPath,
                  cwd: root,
                  tool_name: event === 'post-tool-use' ? 'Write' : 'Skill',
                  tool_input: { skill: 'deep-dive', file_path: join(dir, 'project', 'ORCHESTRATION.yaml') },
                  source: 'startup',
                  trigger: 'auto',
                  prompt: 'p',
                  compact_summary: 'Summary: work in progress.',
                }),
              ],
            ],
          },
        );
      }),
      {
        numRuns: 60,
        examples: [
          [
            aTranscript().assistant({ cacheRead: 100_000 }).toString(),
            undefined,
            'resumption:\n  updated_at: 2020-01-01T00:00:00Z\n',
            { [ENV.strict]: 'on', [ENV.window]: '200000' },
          ],
        ],
      },
    );
    // The generators must reach the paths that speak, not only the silent ones.
    // (PostCompact never prints: its output would reach only the person.)
    if (event !== 'post-compact') expect(seen.output + seen.blocked).toBeGreaterThan(0);
    if (event === 'pre-tool-use') expect(seen.blocked).toBeGreaterThan(0);
  }, 120_000);

  it('a real assistant turn with hostile usage values never measures as NaN or a negative fill', () => {
    fc.assert(
      fc.property(usage, fc.constantFrom('Skill', 'Agent'), (u, tool) => {
        const lines = JSON.stringify({
          type: 'assistant',
          isSidechain: false,
          message: { model: 'claude-opus-5-5', usage: u, content: [] },
        });
        const { dir, transcriptPath } = world(
          undefined,
          undefined,
          `${aTranscript().assistant({ cacheRead: 50_000 }).toString()}${lines}\n`,
        );
        const stdin = JSON.stringify({
          session_id: 's-1',
          transcript_path: transcriptPath,
          cwd: dir,
          tool_name: tool,
          tool_input: { skill: 'x' },
          prompt: 'p',
          source: 'startup',
          trigger: 'auto',
        });
        expectWellBehaved(
          event,
          runHookEvent(
            event,
            () => HANDLERS[event],
            context(dir, { [ENV.strict]: 'on', [ENV.ceilingPct]: '1' }),
            () => stdin,
          ),
        );
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});

describe("an operator's file name that reads like a number", () => {
  it('is quoted back as given (no -0% in the project), and the check for numbers computed wrong still sees the rest', () => {
    const { dir, transcriptPath } = world('{}', undefined, '');
    const env = { [ENV.orchestrationFile]: '-0%', [ENV.strict]: 'on', [ENV.ceilingPct]: '5' };
    const outcome = HANDLERS['pre-compact']!(JSON.stringify({ session_id: ' ', transcript_path: transcriptPath }), context(dir, env));
    expect(outcome.stdout).toContain('no -0% in the project');
    expectWellBehaved('pre-compact', outcome, quotedValues(env));
    expect(() =>
      expectWellBehaved('pre-compact', { ...outcome, stdout: `${outcome.stdout}-5% of the window\n` }, quotedValues(env)),
    ).toThrow();
  });
});
