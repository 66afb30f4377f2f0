// @module-tag hook
/**
 * Faults a hook meets in the field: a read-only project, a full disk, the state
 * directory deleted under it, the transcript deleted or truncated while read.
 * Each fails open (exit 0), keeps earlier files intact, and says what happened
 * in the debug log. Read-only and full disks are real tmpfs mounts (this needs
 * root, as CI has; elsewhere those cases show as skipped).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { type HookRun, makeSandbox, preToolUse, runHook, type Sandbox } from '../helpers/sandbox.js';
import { expectWellBehaved } from './invariants.js';

const isRoot = process.getuid?.() === 0;
let sandbox: Sandbox;
let mounts: string[] = [];
beforeEach(() => {
  sandbox = makeSandbox();
  mounts = [];
});
afterEach(() => {
  for (const mount of mounts.reverse()) execFileSync('umount', ['-l', mount]);
  sandbox.cleanup();
});

/** A real small filesystem: `size` bytes of tmpfs. */
function tmpfs(path: string, size: string): void {
  mkdirSync(path, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', path]);
  mounts.push(path);
}

const SESSION = 'fault-session';
const debugLog = () => join(sandbox.root, 'debug.log');
const readDebug = () => (existsSync(debugLog()) ? readFileSync(debugLog(), 'utf8') : '');
const hook = (event: string, input: Record<string, unknown>, project = sandbox.project, env: Record<string, string> = {}) =>
  runHook(
    sandbox,
    { session_id: SESSION, cwd: project, ...input },
    { CLAUDE_PROJECT_DIR: project, DEV_TEAM_CONTEXT_DEBUG: debugLog(), ...env },
    'hook',
    event,
  );

/**
 * Concurrent runs in batches of BATCH until `raced()` says the race a tolerance test is about happened, at most
 * MAX_BATCHES: which run meets which change is the scheduler's, and a fast runtime (Bun) or a loaded machine can
 * let a whole batch miss it. Every run is returned, for the test to judge; the test still asserts the race.
 */
const BATCH = 30;
const MAX_BATCHES = 8;
async function untilRaced(raced: () => boolean, run: (i: number) => Promise<HookRun>): Promise<HookRun[]> {
  const runs: HookRun[] = [];
  for (let batch = 0; batch < MAX_BATCHES && (batch === 0 || !raced()); batch++)
    runs.push(...(await Promise.all(Array.from({ length: BATCH }, (_, i) => run(batch * BATCH + i)))));
  return runs;
}

describe('faults', () => {
  it.skipIf(!isRoot)(
    'a read-only project: the earlier checkpoint stays intact, the next goes to the private state (EROFS), the person is told once',
    async () => {
      const project = join(sandbox.root, 'ro-project');
      tmpfs(project, '1m');
      const transcript = sandbox.write('t.jsonl', aTranscript().assistant({ cacheRead: 150_000 }).toString());
      const first = await hook('pre-compact', { transcript_path: transcript, trigger: 'auto' }, project);
      expect(first.stdout).toContain('checkpointed as cx-001');
      const checkpoint = join(project, '.claude', 'context-ceiling', 'checkpoints', SESSION, 'cx-001-checkpoint.json');
      const before = readFileSync(checkpoint, 'utf8');
      execFileSync('mount', ['-o', 'remount,ro', project]);
      const second = await hook('pre-compact', { transcript_path: transcript, trigger: 'auto' }, project);
      const privateRoot = join(sandbox.home, '.local', 'state', 'context-ceiling', 'checkpoints');
      expect(second.reason).toBe('checkpoint cx-001');
      expect(second.stdout).toContain(`checkpointed as cx-001 (${privateRoot}/`);
      expect(readFileSync(checkpoint, 'utf8')).toBe(before);
      expect(readdirSync(join(project, '.claude', 'context-ceiling', 'checkpoints', SESSION))).toEqual(['cx-001-checkpoint.json']);
      expect(readDebug()).toMatch(/the project's checkpoint folder cannot be used \(EROFS/);
      const alert = await hook('session-start', { transcript_path: transcript, source: 'compact' }, project);
      expectWellBehaved('session-start', alert);
      const output = JSON.parse(alert.stdout);
      expect(output.hookSpecificOutput.additionalContext).toContain(`<compaction-alert>`);
      expect(output.hookSpecificOutput.additionalContext).toContain(privateRoot);
      expect(output.systemMessage).toMatch(
        /^context-ceiling: this project's checkpoint folder cannot be used \(EROFS.*\), so its checkpoints are kept in /,
      );
      const later = await hook('user-prompt-submit', { transcript_path: transcript, prompt: 'go' }, project);
      expect(later.stdout).not.toContain('systemMessage'); // told once
    },
  );

  it.skipIf(!isRoot)(
    'a full disk: no half-written checkpoint, no temp file left, earlier files intact, the rest go to the private state',
    async () => {
      const project = join(sandbox.root, 'full-project');
      tmpfs(project, '64k');
      sandbox.write('full-project/ORCHESTRATION.yaml', `resumption:\n  notes: "${'n'.repeat(20_000)}"\n`);
      const transcript = sandbox.write('t.jsonl', aTranscript().assistant({ cacheRead: 150_000 }).toString());
      const runs = [];
      for (let i = 0; i < 6; i++) runs.push(await hook('pre-compact', { transcript_path: transcript, trigger: 'auto' }, project));
      for (const run of runs) expect(run.exitCode).toBe(0);
      for (const run of runs) expect(run.reason).toMatch(/^checkpoint cx-\d+$/); // none lost: the private state took the rest
      const dir = join(project, '.claude', 'context-ceiling', 'checkpoints', SESSION);
      const files = readdirSync(dir);
      expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
      for (const file of files) expect(() => JSON.parse(readFileSync(join(dir, file), 'utf8'))).not.toThrow(); // every file complete
      expect(files.length).toBeLessThan(6); // the disk filled up
      expect(readDebug()).toMatch(/the project's checkpoint folder cannot be used \(ENOSPC/);
    },
  );

  it.skipIf(!isRoot)('a full state disk: the warning is still given (and said to repeat), a block still blocks', async () => {
    const state = join(sandbox.root, 'state-disk');
    tmpfs(state, '16k');
    writeFileSync(join(state, 'filler'), Buffer.alloc(16 * 1024 - 1));
    const transcript = sandbox.write('t.jsonl', aTranscript().assistant({ cacheRead: 450_000 }).toString());
    const stateEnv = { DEV_TEAM_CONTEXT_STATE_DIR: join(state, 'cc') };
    const warn = await hook('pre-tool-use', preToolUse(transcript, 'Agent', {}, { session_id: SESSION }), sandbox.project, stateEnv);
    expect(warn.reason).toBe('warn over-ceiling unremembered');
    expect(readDebug()).toMatch(/dedup state unavailable \(ENOSPC/);
    const block = await hook('pre-tool-use', preToolUse(transcript, 'Skill', { skill: 'x' }, { session_id: SESSION }), sandbox.project, {
      ...stateEnv,
      DEV_TEAM_CONTEXT_STRICT: 'on',
    });
    expect(block.reason).toBe('block over-ceiling-blocked');
    expect(JSON.parse(block.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  // A tolerance test, not a proof: where in a hook the deletion lands is up to the scheduler. It asserts only
  // that deletions did happen while hooks ran (so a run without any interference does not pass as one).
  it('tolerance: the state directory deleted while hooks run: every run fails open or works, nothing crashes', async () => {
    const state = join(sandbox.root, 'state');
    // Over the ceiling of the default model's window, so every run keeps dedup state there.
    const transcript = sandbox.write('t.jsonl', aTranscript().assistant({ cacheRead: 450_000 }).toString());
    let deleting = true;
    let deletions = 0;
    const deleter = (async () => {
      while (deleting) {
        try {
          if (existsSync(state)) {
            rmSync(state, { recursive: true, force: true });
            deletions += 1;
          }
        } catch {
          // a hook recreated part of it meanwhile: try again
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    // Batches until the deleter has met the directory a hook made (a fast runtime or a busy machine can take more than one).
    const runs = await untilRaced(
      () => deletions > 0,
      (i) =>
        hook('pre-tool-use', preToolUse(transcript, 'Agent', {}, { session_id: `${SESSION}-${i % 3}` }), sandbox.project, {
          DEV_TEAM_CONTEXT_STATE_DIR: state,
        }),
    );
    deleting = false;
    await deleter;
    expect(deletions).toBeGreaterThan(0);
    for (const run of runs) expectWellBehaved('pre-tool-use', run);
  });

  // A tolerance test: which read meets which change is up to the scheduler; the log check below proves at least
  // one run met a deleted or shrunk transcript, so a run that never raced fails rather than passes.
  it('tolerance: the transcript deleted or truncated while it is read: fail open, and the log says why', async () => {
    const transcript = join(sandbox.root, 'moving.jsonl');
    const full = `${aTranscript().assistant({ cacheRead: 150_000 }).toString()}${'{"type":"user","message":{"content":"'.concat('y'.repeat(4 * 1024 * 1024), '"}}\n')}`;
    writeFileSync(transcript, full);
    let churning = true;
    const churn = (async () => {
      for (let i = 0; churning; i++) {
        if (i % 3 === 0) rmSync(transcript, { force: true });
        else if (i % 3 === 1) writeFileSync(transcript, full);
        else if (existsSync(transcript)) truncateSync(transcript, 1024);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    const raced = /transcript-error="(ENOENT|transcript shrank while being read)/;
    const runs = await untilRaced(
      () => raced.test(readDebug()),
      () =>
        hook('pre-tool-use', preToolUse(transcript, 'Skill', { skill: 'x' }, { session_id: SESSION }), sandbox.project, {
          DEV_TEAM_CONTEXT_STRICT: 'on',
        }),
    );
    churning = false;
    await churn;
    for (const run of runs) expectWellBehaved('pre-tool-use', { ...run, stderr: run.stderr.replace(/^context-ceiling debug:.*\n/gm, '') });
    expect(readDebug()).toMatch(raced);
  });
});
