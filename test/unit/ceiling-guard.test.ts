/** The Agent SDK guard never throws into the user's agent: an unexpected error lets the call through and is kept as the last error. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookInput } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLastError } from '../../src/io/state.js';
import { type CeilingDecision, createCeilingGuard } from '../../src/sdk/ceiling-guard.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cc-sdk-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('an unexpected error inside the SDK guard', () => {
  it('resolves to no output (the call goes through), tells onDecision why, and records the last error status and doctor show', async () => {
    const decisions: CeilingDecision[] = [];
    const stateDir = join(root, 'state');
    const guard = createCeilingGuard({ strict: true, stateDir, env: { HOME: root }, onDecision: (d) => decisions.push(d) });
    // A tool input whose reading throws: any failure of our own code takes this path.
    const input = {
      hook_event_name: 'PreToolUse',
      session_id: 's',
      transcript_path: join(root, 't.jsonl'),
      cwd: root,
      tool_name: 'Skill',
      tool_input: {
        get skill(): string {
          throw new Error('boom');
        },
      },
    } as unknown as HookInput;
    await expect(guard.hooks[0]!(input, undefined, { signal: new AbortController().signal })).resolves.toEqual({});
    expect(decisions).toEqual([
      {
        toolName: 'Skill',
        outcome: 'allow',
        reason: 'failed-open unexpected-error',
        message: 'context-ceiling: the SDK guard failed and let the call through: boom (context-ceiling doctor shows the last error)',
      },
    ]);
    expect(readLastError(stateDir)).toMatchObject({ event: 'sdk-guard', error: 'boom' });
  });
});
