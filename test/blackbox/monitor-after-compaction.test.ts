// @module-tag hook
/**
 * The monitor on the prompt after a compaction (issue 20: "never ask for the step just taken"), on real transcripts
 * of Claude Code 2.1.331 whose numbers are rewritten so that the compaction left the context over the ceiling.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, preToolUse, ROOT, runHook, type HookRun, type Sandbox } from '../helpers/sandbox.js';

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
  expect((await prompt(transcript)).reason).toBe('monitor emergency');
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
const lastTurnOf = (transcript: string) =>
  readFileSync(transcript, 'utf8')
    .trim()
    .split('\n')
    .filter((line) => line.includes('"type":"assistant"'))
    .at(-1) as string;
/** The transcript's boundary record again, as a newer compaction with these numbers. */
const boundaryOf = (transcript: string, compactMetadata: { preTokens: number; postTokens: number }) => {
  const line = readFileSync(transcript, 'utf8')
    .split('\n')
    .find((l) => l.includes('"subtype":"compact_boundary"')) as string;
  const record = JSON.parse(line);
  record.compactMetadata = { ...record.compactMetadata, ...compactMetadata };
  return JSON.stringify(record);
};
/** An assistant turn of the transcript again, with this usage. */
const turnAt = (transcript: string, tokens: number) => {
  const record = JSON.parse(lastTurnOf(transcript));
  record.message.usage = { ...record.message.usage, input_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: tokens - 5 };
  return JSON.stringify(record);
};
/** Our recovery skill, installed in the person's own skills (so it is named bare). */
const SKILL = 'context-summarization';

describe('the monitor right after a compaction that left the context over the ceiling', () => {
  it('/compact left 72 % (no turn since): says what just happened and the numbers, never asks for the recovery skill or /compact', async () => {
    // The model's window (claude-opus-5-5: 1,000,000), the default 40 % ceiling; Claude Code compacts at ~967,000.
    const { run } = await promptBeforeThenAfter(
      'manual.jsonl',
      rewritten('skill-then-manual-compact.jsonl', { before: 930_000, preTokens: 930_020, postTokens: 720_000 }),
    );
    expect(run.reason).toBe('monitor-after-compaction warning');
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
    expect(first.reason).toBe('monitor-after-compaction over-ceiling');
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

    // At most once per compaction: the next prompt, with another turn and no new compaction, reports nothing again;
    // the boundary is now behind the turn the monitor reads, and monitor.json remembers what it left.
    appendFileSync(transcript, `${lastTurnOf(transcript)}\n`);
    const second = await prompt(transcript);
    expect(second.reason).toBe('monitor-over-ceiling-after-compaction over-ceiling');
    expect(monitor(second)).not.toContain('just compacted');
    expect(monitor(second)).toContain('a compaction already left 449,400 tokens, over the 40% ceiling');
  });

  it('a compaction that brought the context under the ceiling (the real numbers) is reported once too', async () => {
    const { transcript, run } = await promptBeforeThenAfter('auto.jsonl', rewritten('auto-compact.jsonl', {}));
    expect(run.reason).toBe('monitor-after-compaction nominal');
    expect(monitor(run)).toContain('Claude Code just compacted this session (auto compaction: 951,030 → 2,895 tokens)');
    expect(monitor(run)).toContain('Context <1% (3,505 of 1,000,000 tokens');
    expect((await prompt(transcript)).reason).toBe('monitor nominal');
  });

  it('a first look at a session whose newest record is the boundary reports it, once', async () => {
    const parts = rewritten('skill-then-manual-compact.jsonl', {});
    const compacted = sandbox.write('claude/fresh.jsonl', parts.before + parts.after);
    const run = await prompt(compacted);
    expect(run.reason).toBe('monitor-after-compaction nominal');
    expect(monitor(run)).toContain('Claude Code just compacted this session (/compact: 93,020 → 2,647 tokens)');
    expect((await prompt(compacted)).reason).toBe('monitor nominal');
  });
});

describe('the prompts after that, while the newest compaction left the context over the ceiling (issue 20)', () => {
  beforeEach(() => {
    sandbox.write(`home/.claude/skills/${SKILL}/SKILL.md`, `---\nname: ${SKILL}\ndescription: d\n---\n`);
  });
  const overAfterAuto = () => rewritten('auto-compact.jsonl', { before: 951_005, preTokens: 951_030, postTokens: 449_400, after: 450_005 });

  it('never ask for /compact or the recovery skill alone: they say what the compaction left and that the way down is a checkpoint and /clear', async () => {
    const { transcript, run: first } = await promptBeforeThenAfter('auto.jsonl', overAfterAuto());
    expect(first.reason).toBe('monitor-after-compaction over-ceiling');
    expect(monitor(first)).toContain(`Way down: save a checkpoint with /${SKILL}, then ask the person to run /clear`);
    for (const tokens of [452_000, 760_000]) {
      appendFileSync(transcript, `${turnAt(transcript, tokens)}\n`);
      const run = await prompt(transcript);
      expect(run.reason).toBe(`monitor-over-ceiling-after-compaction ${tokens < 700_000 ? 'over-ceiling' : 'warning'}`);
      const text = monitor(run);
      expect(text).toContain(
        'a compaction already left 449,400 tokens, over the 40% ceiling, so /compact again will not bring it under. ' +
          `Way down: save a checkpoint with /${SKILL}, then ask the person to run /clear (the new session resumes from it). Load no new agents or skills`,
      );
      expect(text).not.toMatch(/run \/(compact|context-)|Recommended actions/);
      expect(text.length / 4).toBeLessThanOrEqual(tokens < 700_000 ? 100 : 200);
    }
  });

  it('a newer compaction that brings the context under ends it: growing over the ceiling again gets the usual advice', async () => {
    const { transcript } = await promptBeforeThenAfter('auto.jsonl', overAfterAuto());
    appendFileSync(transcript, `${boundaryOf(transcript, { preTokens: 452_010, postTokens: 2_895 })}\n${turnAt(transcript, 3_505)}\n`);
    const reported = await prompt(transcript);
    expect(reported.reason).toBe('monitor-after-compaction nominal');
    expect(monitor(reported)).toContain('(auto compaction: 452,010 → 2,895 tokens)');
    appendFileSync(transcript, `${turnAt(transcript, 450_005)}\n`);
    const grown = await prompt(transcript);
    expect(grown.reason).toBe('monitor over-ceiling');
    expect(monitor(grown)).toContain(`run /${SKILL} after this step`);
  });

  const guard = (transcript: string, env: Record<string, string> = {}) =>
    runHook(sandbox, preToolUse(transcript, 'Skill', { skill: 'deep-dive' }, { session_id: SESSION, cwd: sandbox.project }), {
      CLAUDE_PROJECT_DIR: sandbox.project,
      ...env,
    });

  it('the guard, mid-run (no prompt since the compaction), warns and blocks with the same way down', async () => {
    const transcript = sandbox.write('claude/guard.jsonl', overAfterAuto().before);
    expect((await prompt(transcript)).reason).toBe('monitor emergency');
    appendFileSync(transcript, overAfterAuto().after);
    const warned = await guard(transcript);
    expect(warned.reason).toBe('warn over-ceiling over-ceiling-after-compaction');
    const output = JSON.parse(warned.stdout);
    expect(output.hookSpecificOutput.additionalContext).toContain(
      `until you have brought context back under the ceiling: save a checkpoint with /${SKILL}, then ask the person to run /clear (the new session resumes from it), since a compaction already left 449,400 tokens, over the 40% ceiling, so /compact again will not bring it under.`,
    );
    expect(output.systemMessage).toContain('the model was told to save a checkpoint');
    const blocked = await guard(transcript, { DEV_TEAM_CONTEXT_STRICT: 'on' });
    expect(blocked.reason).toBe('block over-ceiling-blocked over-ceiling-after-compaction');
    expect(JSON.parse(blocked.stdout).hookSpecificOutput.permissionDecisionReason).toContain(
      `To bring context back under the ceiling, save a checkpoint with /${SKILL}, then ask the person to run /clear`,
    );
    for (const run of [warned, blocked]) expect(run.stdout).not.toMatch(/run the \/|\(\/compact\)/);
  });

  it('the guard after a compaction that left the context under: the usual way out', async () => {
    const parts = rewritten('auto-compact.jsonl', { before: 951_005, preTokens: 951_030, postTokens: 2_895, after: 450_005 });
    const transcript = sandbox.write('claude/guard-under.jsonl', parts.before);
    await prompt(transcript);
    appendFileSync(transcript, parts.after);
    const warned = await guard(transcript);
    expect(warned.reason).toBe('warn over-ceiling');
    expect(JSON.parse(warned.stdout).hookSpecificOutput.additionalContext).toContain(`run the /${SKILL} skill`);
  });
});
