// @module-tag hook
/**
 * The checkpoint folder as a repository sees it: git status shows none of it (a `.gitignore` of `*` written
 * when the hooks create the folder, never over one already there); seed 000's acknowledgement marker
 * (`cx-NNN-checkpoint.json.acknowledged`) counts as acknowledged, and ours is the one written.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { runCliOk, runHook, useProjectSandbox, type HookRun } from '../helpers/sandbox.js';

const { sandbox } = useProjectSandbox();

const root = () => join(sandbox().project, '.claude', 'context-ceiling', 'checkpoints');
const hook = (event: string, session: string, input: Record<string, unknown>) => {
  const transcript = sandbox().write(
    `claude/${session}.jsonl`,
    aTranscript(session)
      .user('go')
      .assistant({ cacheRead: 150_000 - 5 })
      .toString(),
  );
  const payload = { session_id: session, transcript_path: transcript, cwd: sandbox().project, ...input };
  return runHook(sandbox(), payload, { CLAUDE_PROJECT_DIR: sandbox().project }, 'hook', event);
};
const preCompact = (session: string) => hook('pre-compact', session, { trigger: 'auto' });
const context = (run: HookRun) =>
  run.stdout ? (JSON.parse(run.stdout).hookSpecificOutput?.additionalContext as string | undefined) : undefined;
const git = (...args: string[]) => execFileSync('git', args, { cwd: sandbox().project, encoding: 'utf8', env: sandbox().env() });

describe('git status shows no checkpoint', () => {
  it('the folder the hooks create holds a .gitignore of *, itself ignored too', async () => {
    git('init', '-q');
    await preCompact('sess-a');
    await hook('post-compact', 'sess-a', { hook_event_name: 'PostCompact', trigger: 'auto', compact_summary: 'Summary: went on.' });
    await hook('session-start', 'sess-a', { source: 'compact' });
    expect(readdirSync(join(root(), 'sess-a')).sort()).toEqual([
      'cx-001-checkpoint.acknowledged',
      'cx-001-checkpoint.json',
      'cx-001-summary.json',
    ]);
    expect(readFileSync(join(root(), '.gitignore'), 'utf8')).toBe('*\n');
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('a .gitignore already in the folder is the team’s: left as it is', async () => {
    mkdirSync(root(), { recursive: true });
    writeFileSync(join(root(), '.gitignore'), '# ours to commit\n!*\n');
    await preCompact('sess-a');
    expect(existsSync(join(root(), 'sess-a', 'cx-001-checkpoint.json'))).toBe(true);
    expect(readFileSync(join(root(), '.gitignore'), 'utf8')).toBe('# ours to commit\n!*\n');
  });

  it('install --project keeps its runtime visible to git, to commit with the settings', async () => {
    git('init', '-q');
    await runCliOk(sandbox(), ['install', '--project'], { CLAUDE_PROJECT_DIR: sandbox().project });
    await preCompact('sess-a');
    const untracked = git('status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean);
    expect(untracked.some((line) => line.includes('.claude/context-ceiling/runtime/'))).toBe(true);
    expect(untracked.filter((line) => line.includes('/checkpoints/'))).toEqual([]);
  });
});

describe("seed 000's acknowledgement marker", () => {
  it('without any marker, the next session resumes from the checkpoint (the control)', async () => {
    await preCompact('sess-a');
    expect(context(await hook('session-start', 'sess-b', { source: 'startup' }))).toContain('<resumption-context>');
  });

  it('cx-NNN-checkpoint.json.acknowledged counts: no resumption, no alert, listed as acknowledged', async () => {
    await preCompact('sess-a');
    writeFileSync(join(root(), 'sess-a', 'cx-001-checkpoint.json.acknowledged'), '');
    const start = await hook('session-start', 'sess-b', { source: 'startup' });
    expect(context(start)).toBeUndefined();
    expect(start.reason).toBe('no-checkpoint-to-resume');
    expect(context(await hook('user-prompt-submit', 'sess-a', { prompt: 'go on' })) ?? '').not.toContain('<compaction-alert>');
    const list = await runCliOk(sandbox(), ['checkpoints', 'list', '--json'], { CLAUDE_PROJECT_DIR: sandbox().project });
    expect(JSON.parse(list.stdout)).toMatchObject([{ id: 'sess-a/cx-001', acknowledged: true }]);
  });

  it('acknowledging writes our name only', async () => {
    await preCompact('sess-a');
    await runCliOk(sandbox(), ['checkpoints', 'ack', 'cx-001'], { CLAUDE_PROJECT_DIR: sandbox().project });
    expect(readdirSync(join(root(), 'sess-a')).sort()).toEqual(['cx-001-checkpoint.acknowledged', 'cx-001-checkpoint.json']);
  });
});
