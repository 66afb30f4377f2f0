// @module-tag hook
/**
 * Another local user, or a hostile repository, must not be able to make a
 * hook write through a planted link, escape its directories, or run anything.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { makeSandbox, preToolUse, runCli, runHook, type Sandbox } from '../helpers/sandbox.js';
import { hostileWorld } from './hostile-setup.js';
import { expectWellBehaved } from './invariants.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const SESSION = 'sec-session';
const { state, debugLog, env, transcriptAt } = hostileWorld(() => sandbox, SESSION);
const hook = (event: string, input: Record<string, unknown>, extra: Record<string, string> = {}) =>
  runHook(sandbox, { session_id: SESSION, cwd: sandbox.project, ...input }, env(extra), 'hook', event);
const victim = () => sandbox.write('victim.txt', 'original');

describe('the state directory', () => {
  it('is created 0700', async () => {
    await hook('pre-tool-use', preToolUse(transcriptAt(450_000), 'Agent', {}, { session_id: SESSION }));
    expect(statSync(state()).mode & 0o777).toBe(0o700);
    expect(statSync(join(state(), 'sessions')).mode & 0o777).toBe(0o700);
  });

  // Needs root to give a directory to another uid; elsewhere it shows as skipped.
  it.skipIf(process.getuid?.() !== 0)(
    'is refused when another user owns it (and the guard still warns, saying why, rather than use it)',
    async () => {
      mkdirSync(state(), { mode: 0o700 });
      chownSync(state(), 4242, 4242);
      const run = await hook('pre-tool-use', preToolUse(transcriptAt(450_000), 'Agent', {}, { session_id: SESSION }));
      expect(run.reason).toBe('warn over-ceiling unremembered');
      expect(JSON.parse(run.stdout).systemMessage).toContain(`the state directory ${state()} cannot be used`);
      expect(readdirSync(state())).toEqual([]);
      expect(readFileSync(debugLog(), 'utf8')).toContain(`state directory ${state()} belongs to uid 4242`);
      expect((await runCli(sandbox, ['doctor', '--json'], env())).stdout).toContain('belongs to uid 4242');
    },
  );

  it('an existing one open to other users is refused, never chmodded; the warning is still given; doctor says why', async () => {
    mkdirSync(state(), { mode: 0o755 });
    chmodSync(state(), 0o755);
    const run = await hook('pre-tool-use', preToolUse(transcriptAt(450_000), 'Agent', {}, { session_id: SESSION }));
    expect(run.reason).toBe('warn over-ceiling unremembered');
    expect(statSync(state()).mode & 0o777).toBe(0o755);
    expect(readdirSync(state())).toEqual([]);
    const doctor = JSON.parse((await runCli(sandbox, ['doctor', '--json'], env())).stdout) as {
      checks: Array<{ name: string; detail: string }>;
    };
    expect(doctor.checks.find((c) => c.name === 'state')!.detail).toContain('is open to other users (mode 0755)');
  });

  it('is refused when it is a symlink', async () => {
    mkdirSync(join(sandbox.root, 'elsewhere'));
    symlinkSync(join(sandbox.root, 'elsewhere'), state());
    const run = await hook('pre-tool-use', preToolUse(transcriptAt(450_000), 'Agent', {}, { session_id: SESSION }));
    expect(run.reason).toBe('warn over-ceiling unremembered');
    expect(readdirSync(join(sandbox.root, 'elsewhere'))).toEqual([]);
  });
});

describe('planted symlinks are never written through', () => {
  it('a dedup marker planted as a link: not followed, the target keeps its content', async () => {
    const target = victim();
    const sessionDir = join(state(), 'sessions', SESSION);
    mkdirSync(sessionDir, { recursive: true, mode: 0o700 });
    symlinkSync(target, join(sessionDir, 'warned-e0-b10'));
    symlinkSync(target, join(sessionDir, 'epoch.json'));
    const first = await hook('pre-tool-use', preToolUse(transcriptAt(450_000), 'Agent', {}, { session_id: SESSION }));
    const second = await hook('pre-tool-use', preToolUse(transcriptAt(520_000), 'Agent', {}, { session_id: SESSION }));
    expect(readFileSync(target, 'utf8')).toBe('original');
    // Still warned: a planted epoch file reads as none (a fresh epoch); a planted marker is not ours, so the state
    // cannot remember that band and the warning is given anyway.
    expect([first.reason, second.reason]).toEqual(['warn over-ceiling', 'warn over-ceiling unremembered']);
  });

  it('a status line record planted as a link: replaced, not followed', async () => {
    const target = victim();
    mkdirSync(join(state(), 'statusline'), { recursive: true, mode: 0o700 });
    symlinkSync(target, join(state(), 'statusline', `${SESSION}.json`));
    const status = JSON.stringify({
      session_id: SESSION,
      model: { id: 'm' },
      context_window: { context_window_size: 1_000_000, current_usage: null },
    });
    await runCli(sandbox, ['statusline'], env(), status);
    expect(readFileSync(target, 'utf8')).toBe('original');
    expect(lstatSync(join(state(), 'statusline', `${SESSION}.json`)).isSymbolicLink()).toBe(false);
  });

  it('a checkpoint name or acknowledgement marker planted as a link: not followed', async () => {
    const target = victim();
    const dir = join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints', SESSION);
    mkdirSync(dir, { recursive: true });
    symlinkSync(target, join(dir, 'cx-001-checkpoint.json'));
    const run = await hook('pre-compact', { transcript_path: transcriptAt(150_000), trigger: 'auto' });
    expect(run.stdout).toContain('checkpointed as cx-002');
    symlinkSync(target, join(dir, 'cx-002-checkpoint.acknowledged'));
    await hook('session-start', { transcript_path: transcriptAt(150_000), source: 'compact' });
    await hook('user-prompt-submit', { transcript_path: transcriptAt(150_000), prompt: 'go' });
    expect(readFileSync(target, 'utf8')).toBe('original');
  });
});

describe('ids cannot escape their directories', () => {
  it.each(['../../escape', '/etc/passwd', '..', 'a/../../b', '%2e%2e%2fx', 'x\u0000y'])('session id %j', async (id) => {
    const transcript = transcriptAt(150_000);
    for (const event of ['pre-tool-use', 'pre-compact', 'user-prompt-submit', 'session-start']) {
      const run = await hook(event, {
        session_id: id,
        transcript_path: transcript,
        tool_name: 'Agent',
        tool_input: {},
        trigger: 'auto',
        source: 'compact',
        prompt: 'p',
      });
      expectWellBehaved(event, run);
    }
    expect(readdirSync(sandbox.root).filter((name) => !['debug.log', 'home', 'project', 'state', 't.jsonl', 'tmp'].includes(name))).toEqual(
      [],
    );
    for (const dir of [join(state(), 'sessions'), join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints')]) {
      // checkpoints/ also holds its .gitignore (ours, a fixed name); every other name is a sanitised session id.
      if (existsSync(dir)) for (const name of readdirSync(dir).filter((n) => n !== '.gitignore')) expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
    }
  });

  it('checkpoint ids on the command line only ever name listed checkpoints', async () => {
    await hook('pre-compact', { transcript_path: transcriptAt(150_000), trigger: 'auto' });
    for (const id of ['../../../etc/passwd', `${SESSION}/../../x`, '/etc/passwd']) {
      const run = await runCli(sandbox, ['checkpoints', 'show', id], env());
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain(`no checkpoint ${id}`);
    }
  });
});

describe('nothing from a transcript, a YAML file or a policy is executed', () => {
  it('shell syntax in every field a hook reads stays text', async () => {
    const marker = join(sandbox.root, 'pwned');
    const evil = [`$(touch ${marker})`, `\`touch ${marker}\``, `; touch ${marker}`, `| touch ${marker}`].join(' ');
    const transcript = sandbox.write(
      'evil.jsonl',
      aTranscript(evil)
        .assistant({ cacheRead: 150_000, model: evil, toolUse: { name: 'Skill', input: { skill: evil } } })
        .compactBoundary({ trigger: 'manual' })
        .toString(),
    );
    sandbox.write(
      'project/ORCHESTRATION.yaml',
      `header:\n  workflow_id: "${evil}"\nresumption:\n  next_step: "${evil}"\n  current_phase: "${evil}"\n  updated_at: "${evil}"\n`,
    );
    sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ stateDir: join(sandbox.root, 'state'), recoverySkills: ['a'] }));
    for (const event of ['pre-tool-use', 'pre-compact', 'user-prompt-submit', 'session-start', 'post-tool-use']) {
      await hook(event, {
        transcript_path: transcript,
        tool_name: 'Skill',
        tool_input: { skill: evil, file_path: join(sandbox.project, 'ORCHESTRATION.yaml') },
        trigger: 'auto',
        source: 'startup',
        prompt: evil,
      });
    }
    await hook('pre-compact', { transcript_path: transcript, trigger: 'auto' });
    await hook('session-start', { session_id: 'other', transcript_path: transcript, source: 'startup' });
    await runCli(sandbox, ['report', transcript, '--html', join(sandbox.root, 'r.html')], env());
    await runCli(sandbox, ['replay', transcript], env());
    await runCli(sandbox, ['status', '--transcript', transcript], env());
    expect(existsSync(marker)).toBe(false);
  });
});

describe('files that must not be touched', () => {
  it('the guard never writes outside its state directory; PreCompact only under .claude/context-ceiling', async () => {
    const before = new Set(readdirSync(sandbox.project));
    writeFileSync(join(sandbox.project, 'README.md'), 'keep');
    await hook('pre-tool-use', preToolUse(transcriptAt(150_000), 'Agent', {}, { session_id: SESSION }));
    await hook('pre-compact', { transcript_path: transcriptAt(150_000), trigger: 'auto' });
    const after = readdirSync(sandbox.project).filter((name) => !before.has(name));
    expect(after.sort()).toEqual(['.claude', 'README.md']);
    expect(readdirSync(join(sandbox.project, '.claude'))).toEqual(['context-ceiling']);
  });
});
