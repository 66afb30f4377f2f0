// @module-tag hook
/**
 * Many hook processes at once for one session: warnings, checkpoints and alerts stay exactly-once.
 * Tolerance tests: the same assertions hold for sequential runs, so a pass does not prove the runs
 * overlapped; a lost race shows as a duplicate or a missing output. The claims themselves are
 * exclusive creates (state.ts, checkpoints.ts), which is what makes them safe, not these runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { makeSandbox, preToolUse, runHook, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const SESSION = 'race-session';
const transcriptAt = (tokens: number) =>
  sandbox.write(
    'claude/race.jsonl',
    aTranscript()
      .user('go')
      .assistant({ cacheRead: tokens - 5 })
      .toString(),
  );
const hook = (event: string, input: Record<string, unknown>) =>
  runHook(sandbox, { session_id: SESSION, cwd: sandbox.project, ...input }, { CLAUDE_PROJECT_DIR: sandbox.project }, 'hook', event);
const alertOf = (stdout: string) =>
  stdout.startsWith('{') ? /CHECKPOINT: (\S+)/.exec(JSON.parse(stdout).hookSpecificOutput?.additionalContext ?? '')?.[1] : undefined;

describe('concurrency', () => {
  it('50 parallel guard calls for one session warn exactly once per 5-point bucket', async () => {
    const input = preToolUse(transcriptAt(450_000), 'Agent', {}, { session_id: SESSION });
    const first = await Promise.all(Array.from({ length: 50 }, () => runHook(sandbox, input)));
    expect(first.every((run) => run.exitCode === 0)).toBe(true);
    expect(first.filter((run) => run.stdout !== '')).toHaveLength(1);
    expect(first.map((run) => run.reason).sort()).toEqual([...Array(49).fill('deduplicated over-ceiling'), 'warn over-ceiling'].sort());
    const higher = preToolUse(transcriptAt(550_000), 'Agent', {}, { session_id: SESSION });
    const second = await Promise.all(Array.from({ length: 50 }, () => runHook(sandbox, higher)));
    expect(second.filter((run) => run.stdout !== '')).toHaveLength(1);
    expect(second.find((run) => run.stderr)!.stderr).toContain('55%');
  }, 120_000);

  it('20 parallel PreCompact calls write 20 distinct, complete, valid checkpoints', async () => {
    const transcript = transcriptAt(150_000);
    const runs = await Promise.all(Array.from({ length: 20 }, () => hook('pre-compact', { transcript_path: transcript, trigger: 'auto' })));
    expect(runs.every((run) => run.exitCode === 0)).toBe(true);
    const dir = join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints', SESSION);
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(20);
    expect(new Set(files.map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')).sequence)).size).toBe(20);
  }, 120_000);

  it('monitor, checkpoint and alert racing: no alert is lost, none is shown twice', async () => {
    const transcript = transcriptAt(160_000);
    const dir = join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints', SESSION);
    const shown: string[] = [];
    for (let round = 0; round < 5; round++) {
      const runs = await Promise.all([
        hook('pre-compact', { transcript_path: transcript, trigger: 'auto' }),
        hook('user-prompt-submit', { transcript_path: transcript, prompt: 'go' }),
        hook('session-start', { transcript_path: transcript, source: 'compact' }),
        hook('pre-compact', { transcript_path: transcript, trigger: 'manual' }),
        hook('user-prompt-submit', { transcript_path: transcript, prompt: 'go' }),
        hook('session-start', { transcript_path: transcript, source: 'compact' }),
      ]);
      for (const run of runs) {
        expect(run.exitCode).toBe(0);
        const path = alertOf(run.stdout);
        if (path) shown.push(path);
      }
      // The next prompt is the fallback channel: whatever this round left pending is shown now.
      const drain = alertOf((await hook('user-prompt-submit', { transcript_path: transcript, prompt: 'next' })).stdout);
      if (drain) shown.push(drain);
      const checkpoints = readdirSync(dir)
        .filter((f) => f.endsWith('-checkpoint.json'))
        .sort();
      const newest = join(dir, checkpoints[checkpoints.length - 1]!);
      expect(shown, `round ${round}: the newest checkpoint must have been shown`).toContain(newest);
      expect(readdirSync(dir).filter((f) => f.endsWith('.acknowledged'))).toHaveLength(checkpoints.length);
    }
    expect(new Set(shown).size).toBe(shown.length); // never twice
    expect(readdirSync(dir).filter((f) => f.endsWith('-checkpoint.json'))).toHaveLength(10);
  }, 120_000);
});
