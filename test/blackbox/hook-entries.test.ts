// @module-tag hook
/**
 * The bin's `context-ceiling hook <event>` is the same runner as plugin/dist/hook.cjs (docs/hooks.md, "Entry
 * points"): the same session, run step by step through each entry in two sandboxes alike, gets the same exit code,
 * stdout, stderr and stated reason at every step (the sandbox's own path taken out), and leaves the same checkpoint
 * files. The guard's whole contract runs through hook.cjs (guard.test.ts and its neighbours, describeGuard).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { STRICT } from '../helpers/guard-runners.js';
import { type HookRun, makeSandbox, preToolUse, runHook, type Sandbox } from '../helpers/sandbox.js';

const SESSION = 'b1d7a0c2-5f4e-4c3b-9a8d-7e6f5a4b3c2d';

/** One hook run of the session: the event, its input (built in the sandbox it runs in) and the settings added. */
type Step = { event: string; input: (sandbox: Sandbox) => unknown; env?: Record<string, string> };

/** The default model's session at `tokens` (1,000,000 window), with a compaction at its end when `compacted`. */
function transcript(sandbox: Sandbox, tokens: number, compacted = false): string {
  const t = aTranscript()
    .user('go')
    .assistant({ cacheRead: tokens - 5 });
  if (compacted) t.compactBoundary({ preTokens: tokens });
  return sandbox.write('claude/session.jsonl', t.toString());
}

const skill =
  (tokens: number, compacted = false) =>
  (sandbox: Sandbox) => ({
    ...preToolUse(transcript(sandbox, tokens, compacted), 'Skill', { skill: 'deep-dive' }),
    session_id: SESSION,
    cwd: sandbox.project,
  });
const other = (fields: Record<string, unknown>) => (sandbox: Sandbox) => ({
  session_id: SESSION,
  cwd: sandbox.project,
  transcript_path: transcript(sandbox, 180_000),
  ...fields,
});

const GUARD: Step[] = [
  { event: 'pre-tool-use', input: skill(100_000), env: STRICT },
  { event: 'pre-tool-use', input: skill(450_000) },
  { event: 'pre-tool-use', input: skill(455_000) },
  { event: 'pre-tool-use', input: skill(460_000), env: STRICT },
  { event: 'pre-tool-use', input: skill(460_000, true) },
  { event: 'pre-tool-use', input: () => 'not json' },
];

const AROUND_A_COMPACTION: Step[] = [
  { event: 'user-prompt-submit', input: other({ hook_event_name: 'UserPromptSubmit', prompt: 'go on' }) },
  { event: 'pre-compact', input: other({ hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null }) },
  { event: 'session-start', input: other({ hook_event_name: 'SessionStart', source: 'compact' }) },
  {
    event: 'post-compact',
    input: other({ hook_event_name: 'PostCompact', trigger: 'auto', compact_summary: 'We were fixing the parser.' }),
  },
  { event: 'user-prompt-submit', input: other({ hook_event_name: 'UserPromptSubmit', prompt: 'go on' }) },
  {
    event: 'post-tool-use',
    input: (sandbox) => ({
      ...other({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_response: {} })(sandbox),
      tool_input: { file_path: join(sandbox.project, 'README.md'), content: 'x' },
    }),
  },
  { event: 'session-start', input: other({ hook_event_name: 'SessionStart', source: 'startup' }) },
];

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.cleanup();
});

/** The session's steps run through `entry` in a sandbox of its own: what each step gave, and the checkpoint files left. */
async function runThrough(entry: 'hook' | 'cli', steps: Step[]): Promise<{ runs: HookRun[]; files: string[] }> {
  const sandbox = makeSandbox();
  sandboxes.push(sandbox);
  sandbox.write('home/.claude/skills/context-summarization/SKILL.md', '---\nname: context-summarization\ndescription: d\n---\nbody\n');
  const runs: HookRun[] = [];
  for (const step of steps) {
    const run = await runHook(sandbox, step.input(sandbox), { CLAUDE_PROJECT_DIR: sandbox.project, ...step.env }, entry, step.event);
    // The sandbox's own path, and a checkpoint's age (the second run of a session is seconds after the first's).
    const said = JSON.stringify(run)
      .replaceAll(sandbox.root, '<sandbox>')
      .replace(/\b\d+([smhd]) ago\b/g, 'N$1 ago');
    runs.push(JSON.parse(said) as HookRun);
  }
  const checkpoints = join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints');
  const files = existsSync(checkpoints) ? readdirSync(checkpoints, { recursive: true, encoding: 'utf8' }).sort() : [];
  return { runs, files };
}

describe('`context-ceiling hook <event>` and plugin/dist/hook.cjs', () => {
  it("the guard's verdicts: below the ceiling, a first warning, the same band again, a strict block, unknown since a compaction, no hook input", async () => {
    const hook = await runThrough('hook', GUARD);
    expect(hook.runs.map((run) => run.reason)).toEqual([
      'allow below-ceiling',
      'warn over-ceiling',
      'deduplicated over-ceiling',
      'block over-ceiling-blocked',
      'allow unknown-since-compaction',
      'allow not-a-pre-tool-use-input',
    ]);
    expect(await runThrough('cli', GUARD)).toEqual(hook);
  });

  it('around a compaction: the monitor, PreCompact, the start after it, PostCompact, the next prompt, PostToolUse, a new session', async () => {
    const hook = await runThrough('hook', AROUND_A_COMPACTION);
    expect(hook.runs.map((run) => run.reason)).toEqual([
      'monitor nominal',
      'checkpoint cx-001',
      'compaction-alert',
      'summary-kept',
      'monitor nominal',
      'not-the-orchestration-file',
      'no-checkpoint-to-resume',
    ]);
    expect(hook.files.filter((file) => file.startsWith(SESSION))).toEqual([
      SESSION,
      `${SESSION}/cx-001-checkpoint.acknowledged`,
      `${SESSION}/cx-001-checkpoint.json`,
      `${SESSION}/cx-001-summary.json`,
    ]);
    expect(await runThrough('cli', AROUND_A_COMPACTION)).toEqual(hook);
  });
});
