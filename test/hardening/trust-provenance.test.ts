/**
 * Trust boundaries, part two (issue 19), checkpoints and recovery skills: provenance follows the real project
 * (a symlinked path is the same project; a committed symlink never takes our file's place), checkpoints
 * found in the tree that we did not write are named as found and never resumed, and a repository's skill
 * under a recovery name is neither recommended nor exempt from the guard.
 */
import { readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, type Sandbox } from '../helpers/sandbox.js';
import { hostileWorld } from './hostile-setup.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const SESSION = 'provenance-session';
const { transcriptAt, hook } = hostileWorld(() => sandbox, SESSION);
const sessionDir = (project: string, session = SESSION) => join(project, '.claude', 'context-ceiling', 'checkpoints', session);
const context = (run: { stdout: string }) =>
  run.stdout
    ? ((JSON.parse(run.stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '')
    : '';

/** The sandbox's project reached through a symlink, as a person whose ~/work links to /data/work reaches it. */
function linkedProject(): string {
  const link = join(sandbox.root, 'linked-project');
  symlinkSync(sandbox.project, link);
  return link;
}

/** Hook input and environment of a session run in `project`. */
const inProject = (project: string) => ({ env: { CLAUDE_PROJECT_DIR: project } });

describe('case 10: provenance follows the real project', () => {
  it('a checkpoint written through a symlinked project path is resumed after /clear from the real path', async () => {
    const link = linkedProject();
    sandbox.write('project/ORCHESTRATION.yaml', 'resumption:\n  next_step: finish the parser\n');
    const saved = await hook('pre-compact', { cwd: link, transcript_path: transcriptAt(150_000), trigger: 'auto' }, inProject(link));
    expect(saved.reason).toBe('checkpoint cx-001');
    const cleared = await hook('session-start', { session_id: 'cleared', transcript_path: transcriptAt(3_000), source: 'clear' });
    expect(cleared.reason).toBe('resumption-context');
    expect(context(cleared)).toContain('NEXT ACTION: "finish the parser"');
  });

  it('a checkpoint written from the real path raises its compaction alert in a session that reaches the project through a link', async () => {
    const link = linkedProject();
    expect((await hook('pre-compact', { transcript_path: transcriptAt(150_000), trigger: 'auto' })).reason).toBe('checkpoint cx-001');
    const alert = await hook('session-start', { cwd: link, transcript_path: transcriptAt(3_000), source: 'compact' }, inProject(link));
    expect(alert.reason).toBe('compaction-alert');
    expect(context(alert)).toContain('cx-001');
  });

  it('a committed symlink named like our next checkpoint, pointing at our own file, is not ours: never shown, never acknowledged', async () => {
    expect((await hook('pre-compact', { transcript_path: transcriptAt(150_000), trigger: 'auto' })).reason).toBe('checkpoint cx-001');
    expect((await hook('session-start', { transcript_path: transcriptAt(3_000), source: 'compact' })).reason).toBe('compaction-alert');
    const dir = sessionDir(sandbox.project);
    symlinkSync(join(dir, 'cx-001-checkpoint.json'), join(dir, 'cx-002-checkpoint.json'));
    const again = await hook('session-start', { transcript_path: transcriptAt(3_000), source: 'compact' });
    expect(again.reason).not.toMatch(/^compaction-alert/);
    expect(readdirSync(dir).filter((name) => name.startsWith('cx-002'))).toEqual(['cx-002-checkpoint.json']);
  });
});
