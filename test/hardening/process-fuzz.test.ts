/** The hook processes themselves (plugin/dist/hook.cjs), fed hostile bytes: exit codes, streams and time are what Claude Code sees. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { HOOK_BIN, makeSandbox, type Sandbox } from '../helpers/sandbox.js';
import { expectWellBehaved, quotedValues } from './invariants.js';

const EVENTS = ['pre-tool-use', 'user-prompt-submit', 'pre-compact', 'post-compact', 'session-start', 'post-tool-use'];
let sandbox: Sandbox;
let bigLine = '';
let invalidUtf8 = '';
let normal = '';
beforeAll(() => {
  sandbox = makeSandbox();
  // one 50 MB line (a tool result) after the last turn, and a transcript that is not UTF-8
  bigLine = sandbox.write(
    'big.jsonl',
    `${aTranscript().assistant({ cacheRead: 120_000 }).toString()}${JSON.stringify({ type: 'user', message: { content: 'x'.repeat(50 * 1024 * 1024) } })}\n`,
  );
  invalidUtf8 = join(sandbox.root, 'latin1.jsonl');
  writeFileSync(
    invalidUtf8,
    Buffer.concat([
      Buffer.from(aTranscript().assistant({ cacheRead: 90_000 }).toString()),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x0a]),
      Buffer.from('{"type":"assistant","message":{"usage":{"input_tokens":"\xff"}}}\n', 'latin1'),
    ]),
  );
  normal = sandbox.write('normal.jsonl', aTranscript().assistant({ cacheRead: 100_000 }).toString());
});
afterAll(() => sandbox.cleanup());

async function run(event: string, stdin: string | Buffer, env: Record<string, string> = {}) {
  const started = Date.now();
  const result = await execa(process.execPath, [HOOK_BIN, event], {
    input: stdin,
    env: sandbox.env({ CLAUDE_PROJECT_DIR: sandbox.project, ...env }),
    extendEnv: false,
    cwd: sandbox.project,
    reject: false,
    timeout: 20_000,
    stripFinalNewline: false,
  });
  const outcome = { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
  return { outcome, ms: Date.now() - started, timedOut: result.timedOut };
}

describe.each(EVENTS)('%s as a process', (event) => {
  it('arbitrary bytes, truncated, deeply nested and huge JSON on stdin', async () => {
    const inputs = [
      Buffer.from([0xff, 0x00, 0xfe, 0x7b]),
      '{"session_id":"s","transcript_path":"/x","tool_na',
      `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
      `${'['.repeat(500_000)}${']'.repeat(500_000)}`,
      JSON.stringify({
        session_id: 's',
        transcript_path: normal,
        tool_name: 'Skill',
        tool_input: { skill: 'x'.repeat(1_000_000) },
        prompt: 'p'.repeat(2_000_000),
      }),
      'x'.repeat(9 * 1024 * 1024), // over the stdin cap
    ];
    for (const stdin of inputs) {
      const { outcome, timedOut } = await run(event, stdin, { DEV_TEAM_CONTEXT_STRICT: 'on' });
      expect(timedOut).toBe(false);
      expectWellBehaved(event, outcome);
    }
  }, 120_000);

  it('a 50 MB single line and an invalid UTF-8 transcript', async () => {
    for (const transcript of [bigLine, invalidUtf8]) {
      const stdin = JSON.stringify({
        session_id: 's',
        transcript_path: transcript,
        cwd: sandbox.project,
        tool_name: 'Skill',
        tool_input: { skill: 'deep-dive' },
        prompt: 'p',
        source: 'startup',
        trigger: 'auto',
      });
      const { outcome, timedOut } = await run(event, stdin, { DEV_TEAM_CONTEXT_STRICT: 'on' });
      expect(timedOut).toBe(false);
      expectWellBehaved(event, outcome);
    }
  }, 60_000);

  it('arbitrary environment values', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom(
            'DEV_TEAM_CONTEXT_CEILING',
            'DEV_TEAM_CONTEXT_STRICT',
            'DEV_TEAM_CONTEXT_CEILING_PCT',
            'DEV_TEAM_CONTEXT_WINDOW',
            'DEV_TEAM_CONTEXT_TOOLS',
            'DEV_TEAM_CONTEXT_TIERS',
            'DEV_TEAM_CONTEXT_WARNING_PCT',
            'DEV_TEAM_CONTEXT_MAX_SCAN_BYTES',
            'DEV_TEAM_CONTEXT_POLICY',
            'DEV_TEAM_CONTEXT_MONITOR',
            'DEV_TEAM_CONTEXT_ORCHESTRATION',
            'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE',
            'CLAUDE_PROJECT_DIR',
          ),
          fc.oneof(
            fc.string({ maxLength: 50 }).map((s) => s.replace(/\u0000/g, '')),
            fc.constantFrom('on', 'off', '-1', '1e400', '99999999999999999999', '/etc/passwd', '../..', '0'),
          ),
        ),
        async (env) => {
          const stdin = JSON.stringify({
            session_id: 's',
            transcript_path: normal,
            cwd: sandbox.project,
            tool_name: 'Skill',
            tool_input: { skill: 'deep-dive' },
            prompt: 'p',
            source: 'compact',
            trigger: 'manual',
          });
          const { outcome, timedOut } = await run(event, stdin, env);
          expect(timedOut).toBe(false);
          expectWellBehaved(event, outcome, quotedValues(env));
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});

describe('the status line entry as a process', () => {
  it('any stdin prints nothing or one line, never fails, never NaN', async () => {
    const realShaped = fc.record(
      {
        session_id: fc.oneof(fc.constant('s'), fc.string(), fc.anything()),
        model: fc.anything(),
        context_window: fc.record(
          {
            context_window_size: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
            current_usage: fc.oneof(
              fc.constant(null),
              fc.record({ input_tokens: fc.oneof(fc.integer(), fc.double(), fc.string()) }, { requiredKeys: [] }),
            ),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['session_id'] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          realShaped.map((v) => JSON.stringify(v)),
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        async (stdin) => {
          const result = await execa(process.execPath, [join(HOOK_BIN, '..', 'statusline.cjs')], {
            input: stdin,
            env: sandbox.env(),
            extendEnv: false,
            reject: false,
            timeout: 20_000,
          });
          expect(result.exitCode).toBe(0);
          expect(String(result.stderr)).toBe('');
          expect(String(result.stdout).split('\n').length).toBeLessThanOrEqual(1);
          expect(String(result.stdout)).not.toMatch(/NaN|undefined|Infinity|-\d/);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
