/**
 * The monitor on the prompt after a compaction (issue 20: "never ask for the step just taken"), on real transcripts
 * of Claude Code 2.1.331 whose numbers are rewritten so that the compaction left the context over the ceiling.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, ROOT, runHook, type HookRun, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const REAL = join(ROOT, 'test', 'fixtures', 'claude-code-2.1.331');

type Numbers = { before?: number; preTokens?: number; postTokens?: number; after?: number };

/**
 * A real transcript with its token counts rewritten: assistant usage before the boundary (`before`), the boundary's
 * compactMetadata, and usage after it (`after`). Every other byte of every record is Claude Code's.
 */
function rewritten(name: string, numbers: Numbers): { before: string; after: string } {
  let compacted = false;
  const lines = readFileSync(join(REAL, name), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const record = JSON.parse(line);
      if (record.type === 'system' && record.subtype === 'compact_boundary') {
        compacted = true;
        if (numbers.preTokens !== undefined) record.compactMetadata.preTokens = numbers.preTokens;
        if (numbers.postTokens !== undefined) record.compactMetadata.postTokens = numbers.postTokens;
      }
      const tokens = compacted ? numbers.after : numbers.before;
      if (record.type === 'assistant' && tokens !== undefined) {
        record.message.usage = {
          ...record.message.usage,
          input_tokens: 5,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: tokens - 5,
        };
      }
      return JSON.stringify(record);
    });
  const at = lines.findIndex((line) => line.includes('"subtype":"compact_boundary"'));
  return { before: `${lines.slice(0, at).join('\n')}\n`, after: `${lines.slice(at).join('\n')}\n` };
}

/** The session as the monitor meets it: a prompt before the compaction, then the transcript as it is after it. */
async function promptBeforeThenAfter(
  name: string,
  parts: { before: string; after: string },
): Promise<{ transcript: string; run: HookRun }> {
  const transcript = sandbox.write(`claude/${name}`, parts.before);
  expect((await prompt(transcript)).reason).toBe('monitor');
  appendFileSync(transcript, parts.after);
  return { transcript, run: await prompt(transcript) };
}

const SESSION = '8fba151d-dcb6-435b-87cc-0e68acb50d05';
const prompt = (transcript: string): Promise<HookRun> =>
  runHook(
    sandbox,
    { session_id: SESSION, transcript_path: transcript, cwd: sandbox.project, hook_event_name: 'UserPromptSubmit', prompt: 'go on' },
    { CLAUDE_PROJECT_DIR: sandbox.project },
    'hook',
    'user-prompt-submit',
  );
const monitor = (run: HookRun) => JSON.parse(run.stdout).hookSpecificOutput.additionalContext as string;

describe('the monitor right after a compaction that left the context over the ceiling', () => {
  it('/compact left 72 % (no turn since): says what just happened and the numbers, never asks for the recovery skill or /compact', async () => {
    // The model's window (claude-opus-5-5: 1,000,000), the default 40 % ceiling; Claude Code compacts at ~967,000.
    const { run } = await promptBeforeThenAfter(
      'manual.jsonl',
      rewritten('skill-then-manual-compact.jsonl', { before: 930_000, preTokens: 930_020, postTokens: 720_000 }),
    );
    expect(run.reason).toBe('monitor-after-compaction');
    const text = monitor(run);
    expect(text).toContain('Claude Code just compacted this session (/compact: 930,020 → 720,000 tokens)');
    expect(text).toContain('Context 72% (720,000 of 1,000,000 tokens');
    expect(text).toContain('still past the 40% ceiling');
    expect(text).toContain("Left: 320,000 over the ceiling; 247,000 to Claude Code's compaction (~967,000).");
    expect(text).not.toMatch(/run \/(compact|context-summarization)/i);
    expect(text).toContain('do not ask for /compact again, it was just done');
    expect(text.length / 4).toBeLessThanOrEqual(200);
  });

  it('auto-compaction mid-run, a turn since (45 %): the next prompt says it happened, once; the prompt after speaks as usual', async () => {
    const { transcript, run: first } = await promptBeforeThenAfter(
      'auto.jsonl',
      rewritten('auto-compact.jsonl', { before: 951_005, preTokens: 951_030, postTokens: 449_400, after: 450_005 }),
    );
    expect(first.reason).toBe('monitor-after-compaction');
    const text = monitor(first);
    expect(text).toContain('Claude Code just compacted this session (auto compaction: 951,030 → 449,400 tokens)');
    expect(text).toContain('Context 45% (450,005 of 1,000,000 tokens');
    expect(text).toContain('still past the 40% ceiling');
    expect(text).not.toMatch(/run \/(compact|context-summarization)/i);
    // Said once per compaction, it takes WARNING's budget (200 tokens) and keeps every line whole.
    expect(text.length / 4).toBeLessThanOrEqual(200);
    expect(text).toContain(
      "Left: 50,005 over the ceiling; 516,995 to Claude Code's compaction (~967,000).\nCompactions: 0. Last checkpoint: none.",
    );

    // At most once per compaction: the next prompt, with another turn and no new compaction, is the usual monitor.
    const lastTurn = readFileSync(transcript, 'utf8')
      .trim()
      .split('\n')
      .filter((line) => line.includes('"type":"assistant"'))
      .at(-1);
    appendFileSync(transcript, `${lastTurn}\n`);
    const second = await prompt(transcript);
    expect(second.reason).toBe('monitor');
    expect(monitor(second)).not.toContain('just compacted');
    expect(monitor(second)).toContain('past the 40% ceiling');
  });

  it('a compaction that brought the context under the ceiling (the real numbers) is reported once too', async () => {
    const { transcript, run } = await promptBeforeThenAfter('auto.jsonl', rewritten('auto-compact.jsonl', {}));
    expect(run.reason).toBe('monitor-after-compaction');
    expect(monitor(run)).toContain('Claude Code just compacted this session (auto compaction: 951,030 → 2,895 tokens)');
    expect(monitor(run)).toContain('Context <1% (3,505 of 1,000,000 tokens');
    expect((await prompt(transcript)).reason).toBe('monitor');
  });

  it('a first look at a session whose newest record is the boundary reports it, once', async () => {
    const parts = rewritten('skill-then-manual-compact.jsonl', {});
    const compacted = sandbox.write('claude/fresh.jsonl', parts.before + parts.after);
    const run = await prompt(compacted);
    expect(run.reason).toBe('monitor-after-compaction');
    expect(monitor(run)).toContain('Claude Code just compacted this session (/compact: 93,020 → 2,647 tokens)');
    expect((await prompt(compacted)).reason).toBe('monitor');
  });
});
