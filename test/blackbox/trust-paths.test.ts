/**
 * Only the user's own scopes name paths (issue 19, cases 1, 2, 7, 3 and 11; DESIGN.md "Trust boundaries"):
 * Claude Code applies a repository's `.claude/settings.json` and `.claude/settings.local.json` `env` to every
 * hook of the user's, so the hooks are run here with that env merged in, as Claude Code runs them. A path a
 * repository names there (debug log, state directory, policy file, orchestration file) is ignored and named;
 * the package appends only to a debug log it created; the orchestration file is the project's own.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { expectSilent, HOOK_BIN, makeSandbox, preToolUse, ROOT, runCli, runHook, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const SESSION = 'paths-session';
const defaultState = () => join(sandbox.home, '.local', 'state', 'context-ceiling');
const transcriptAt = (tokens: number, name = 't.jsonl') =>
  sandbox.write(
    name,
    aTranscript()
      .assistant({ cacheRead: tokens - 5 })
      .toString(),
  );

/** The repository's settings file, committed with `env`; returns that env, which Claude Code gives every hook. */
function commitSettingsEnv(env: Record<string, string>, file = 'settings.json'): Record<string, string> {
  sandbox.write(`project/.claude/${file}`, JSON.stringify({ env }));
  return env;
}

/** A hook run as Claude Code runs it in this project: the repository's settings env merged over the process's. */
async function hook(event: string, input: Record<string, unknown>, env: Record<string, string>) {
  const result = await execa(process.execPath, [HOOK_BIN, event], {
    input: JSON.stringify({ session_id: SESSION, cwd: sandbox.project, ...input }),
    env: sandbox.env({ CLAUDE_PROJECT_DIR: sandbox.project, ...env }),
    extendEnv: false,
    cwd: sandbox.project,
    reject: false,
    stripFinalNewline: false,
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const guardOver = (env: Record<string, string>, session = SESSION) =>
  hook('pre-tool-use', preToolUse(transcriptAt(450_000), 'Agent', {}, { session_id: session, cwd: sandbox.project }), env);

const doctorJson = async () =>
  JSON.parse((await runCli(sandbox, ['doctor', '--json'], { CLAUDE_PROJECT_DIR: sandbox.project })).stdout) as {
    checks: Array<{ name: string; status: string; detail: string }>;
  };

describe("a repository's settings env cannot name a path", () => {
  it.each(['settings.json', 'settings.local.json'])(
    'DEV_TEAM_CONTEXT_DEBUG naming a file in .claude/%s: nothing is written there; the guard still warns; doctor names it',
    async (file) => {
      const target = join(sandbox.root, 'bashrc-to-be');
      const env = commitSettingsEnv({ DEV_TEAM_CONTEXT_DEBUG: target }, file);
      // An unknown key whose text a shell would run, if it ever reached a file a shell reads.
      sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ '$(touch pwned)': 1 }));
      const run = await guardOver(env);
      expect(JSON.parse(run.stdout).hookSpecificOutput.additionalContext).toMatch(/context is at 45%/);
      expect(existsSync(target)).toBe(false);
      const config = (await doctorJson()).checks.find((c) => c.name === 'config')!;
      expect(config.status).toBe('fail'); // the unknown key
      expect(config.detail).toContain(
        `DEV_TEAM_CONTEXT_DEBUG="${target}" ignored: set in .claude/${file}; a path is honoured only from the environment or your own settings`,
      );
    },
  );

  it('DEV_TEAM_CONTEXT_STATE_DIR in .claude/settings.json: not created, not chmodded, not written by the guard, the status line or doctor', async () => {
    const victim = join(sandbox.root, 'public_html');
    mkdirSync(victim, { mode: 0o755 });
    chmodSync(victim, 0o755);
    const nested = join(sandbox.root, 'made', 'by', 'mkdir-p');
    for (const dir of [victim, nested]) {
      const env = commitSettingsEnv({ DEV_TEAM_CONTEXT_STATE_DIR: dir });
      const run = await guardOver(env, `s-${dir.length}`);
      expect(JSON.parse(run.stdout).hookSpecificOutput.additionalContext).toMatch(/context is at 45%/);
      await execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs')], {
        input: readFileSync(join(ROOT, 'test', 'fixtures', 'claude-code-2.1.328', 'statusline-after-turn.json'), 'utf8'),
        env: sandbox.env({ CLAUDE_PROJECT_DIR: sandbox.project, ...env }),
        extendEnv: false,
        cwd: sandbox.project,
        reject: false,
      });
      const doctor = await doctorJson();
      expect(doctor.checks.find((c) => c.name === 'state')!.detail).toContain(defaultState());
      expect(doctor.checks.find((c) => c.name === 'config')!.detail).toContain(`DEV_TEAM_CONTEXT_STATE_DIR="${dir}" ignored`);
    }
    expect(readdirSync(victim)).toEqual([]);
    expect(statSync(victim).mode & 0o777).toBe(0o755);
    expect(existsSync(join(sandbox.root, 'made'))).toBe(false);
    expect(readdirSync(defaultState())).toContain('sessions'); // the user's own default was used instead
  });

  it('DEV_TEAM_CONTEXT_POLICY in .claude/settings.json naming a policy that turns the guard off: ignored, the guard still warns', async () => {
    const policy = sandbox.write('elsewhere/policy.json', JSON.stringify({ enabled: false }));
    const run = await guardOver(commitSettingsEnv({ DEV_TEAM_CONTEXT_POLICY: policy }));
    expect(JSON.parse(run.stdout).hookSpecificOutput.additionalContext).toMatch(/context is at 45%/);
  });

  it('the same variables from the process environment are honoured (the control case)', async () => {
    const log = join(sandbox.root, 'debug.log');
    const state = join(sandbox.root, 'state');
    await guardOver({ DEV_TEAM_CONTEXT_DEBUG: log, DEV_TEAM_CONTEXT_STATE_DIR: state });
    expect(readFileSync(log, 'utf8')).toContain('verdict pre-tool-use: warn over-ceiling');
    expect(readdirSync(state)).toContain('sessions');
  });
});

describe("what locates the home comes from the user's scope, as Claude Code has it", () => {
  it.each(['settings.json', 'settings.local.json'])(
    '.claude/%s setting XDG_STATE_HOME, HOME and CLAUDE_CONFIG_DIR: the CLI finds the state where the hooks keep it, and warns of nothing',
    async (file) => {
      const xdg = join(sandbox.root, 'xdg');
      const forged = join(sandbox.project, 'forged-home');
      commitSettingsEnv(
        { XDG_STATE_HOME: join(forged, '.local', 'state'), HOME: forged, CLAUDE_CONFIG_DIR: join(forged, '.claude') },
        file,
      );
      // Claude Code withholds those three from a project's or local settings file (test/e2e/settings-env.test.ts):
      // the hook runs with the process's own.
      const run = await guardOver({ XDG_STATE_HOME: xdg });
      expect(JSON.parse(run.stdout).hookSpecificOutput.additionalContext).toMatch(/context is at 45%/);
      const state = join(xdg, 'context-ceiling');
      expect(readdirSync(state)).toContain('events.jsonl');

      const cli = (args: string[]) => runCli(sandbox, args, { CLAUDE_PROJECT_DIR: sandbox.project, XDG_STATE_HOME: xdg });
      const doctor = JSON.parse((await cli(['doctor', '--json'])).stdout) as {
        checks: Array<{ name: string; status: string; detail: string }>;
      };
      expect(doctor.checks.find((c) => c.name === 'state')!.detail).toContain(state);
      expect(doctor.checks.find((c) => c.name === 'config')).toMatchObject({ status: 'ok' });
      const events = await cli(['events', '--json']);
      expect(events.stderr).toBe('');
      expect(JSON.parse(events.stdout)).toEqual([expect.objectContaining({ session: SESSION })]);
      expect(existsSync(forged)).toBe(false);
    },
  );
});

describe('a path variable a project settings file set is said once to the person', { tags: ['hook'] }, () => {
  const call = (env: Record<string, string>, tokens: number, session = SESSION) =>
    runHook(sandbox, preToolUse(transcriptAt(tokens), 'Agent', {}, { session_id: session, cwd: sandbox.project }), {
      CLAUDE_PROJECT_DIR: sandbox.project,
      ...env,
    });

  it.each(['settings.json', 'settings.local.json'])(
    'DEV_TEAM_CONTEXT_STATE_DIR from .claude/%s: a systemMessage naming it and the file, once per session, below the ceiling too',
    async (file) => {
      const env = commitSettingsEnv({ DEV_TEAM_CONTEXT_STATE_DIR: join(sandbox.root, 'public_html') }, file);
      const first = await call(env, 150_000);
      expect(first.reason).toBe('allow below-ceiling +notice');
      expect(JSON.parse(first.stdout)).toEqual({
        systemMessage: `context-ceiling: ignored DEV_TEAM_CONTEXT_STATE_DIR from .claude/${file}: a project's settings may not name a path for context-ceiling; set it in your environment or ~/.claude/settings.json.`,
      });
      expect(first.stderr).toContain('ignored DEV_TEAM_CONTEXT_STATE_DIR');
      // Told: the next calls of the session are silent, with their reason, whatever the verdict.
      expectSilent(await call(env, 150_000), 'allow below-ceiling');
      const over = await call(env, 450_000);
      expect(over.reason).toBe('warn over-ceiling');
      expect(JSON.parse(over.stdout).systemMessage).not.toContain('DEV_TEAM_CONTEXT_STATE_DIR');
      // Another session hears it once too.
      expect((await call(env, 150_000, 'another-session')).reason).toBe('allow below-ceiling +notice');
    },
  );

  it("the same value in the user's own ~/.claude/settings.json env is the user's: honoured, no notice, doctor names nothing", async () => {
    const state = join(sandbox.root, 'my-state');
    sandbox.write('home/.claude/settings.json', JSON.stringify({ env: { DEV_TEAM_CONTEXT_STATE_DIR: state } }));
    const env = commitSettingsEnv({ DEV_TEAM_CONTEXT_STATE_DIR: state });
    expectSilent(await call(env, 150_000), 'allow below-ceiling');
    expect((await call(env, 450_000)).reason).toBe('warn over-ceiling');
    expect(readdirSync(state)).toContain('sessions');
    expect((await doctorJson()).checks.find((c) => c.name === 'config')!.detail).not.toContain('ignored');
  });

  it('a project that also sets HOME (a forged ~/.claude/settings.json) vouches for nothing: ignored and said', async () => {
    const state = join(sandbox.root, 'public_html');
    const fakeHome = join(sandbox.project, 'fake-home');
    sandbox.write('project/fake-home/.claude/settings.json', JSON.stringify({ env: { DEV_TEAM_CONTEXT_STATE_DIR: state } }));
    const env = commitSettingsEnv({ DEV_TEAM_CONTEXT_STATE_DIR: state, HOME: fakeHome });
    expect((await call(env, 150_000)).reason).toBe('allow below-ceiling +notice');
    expect(existsSync(state)).toBe(false);
  });

  it('the same variable from the process environment is no notice', async () => {
    expectSilent(await call({ DEV_TEAM_CONTEXT_STATE_DIR: join(sandbox.root, 'state') }, 150_000), 'allow below-ceiling');
  });
});

describe('the debug log is appended to only when this package created it', () => {
  it("an existing file that is not our log (a user's ~/.bashrc) is left byte for byte, and said once on stderr", async () => {
    const bashrc = sandbox.write('home/.bashrc', 'export PATH=$PATH\n');
    const run = await guardOver({ DEV_TEAM_CONTEXT_DEBUG: bashrc });
    expect(readFileSync(bashrc, 'utf8')).toBe('export PATH=$PATH\n');
    expect(JSON.parse(run.stdout).hookSpecificOutput.additionalContext).toMatch(/context is at 45%/);
    expect(run.stderr.match(/debug log not written/g)).toHaveLength(1);
    expect(run.stderr).toContain(`context-ceiling: debug log not written: ${bashrc} was not created by this package; not appended to`);
  });

  it('a symlink planted at the log path is not followed', async () => {
    const target = sandbox.write('target.txt', 'kept');
    const log = join(sandbox.root, 'debug.log');
    symlinkSync(target, log);
    await guardOver({ DEV_TEAM_CONTEXT_DEBUG: log });
    expect(readFileSync(target, 'utf8')).toBe('kept');
  });

  it('a log this package created is appended to run after run', async () => {
    const log = join(sandbox.root, 'debug.log');
    await guardOver({ DEV_TEAM_CONTEXT_DEBUG: log });
    await guardOver({ DEV_TEAM_CONTEXT_DEBUG: log });
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(readFileSync(log, 'utf8').match(/verdict pre-tool-use: /g)).toHaveLength(2);
  });
});

describe('the orchestration file is the project’s own', { tags: ['hook'] }, () => {
  const SECRET = 'next_step: OUTSIDE-TEXT\n';
  const preCompact = (env: Record<string, string> = {}) =>
    runHook(
      sandbox,
      { session_id: SESSION, cwd: sandbox.project, transcript_path: transcriptAt(150_000), trigger: 'manual', custom_instructions: null },
      { CLAUDE_PROJECT_DIR: sandbox.project, ...env },
      'hook',
      'pre-compact',
    );
  const checkpoint = (n = 1) =>
    readFileSync(join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints', SESSION, `cx-00${n}-checkpoint.json`), 'utf8');
  const outside = (name = 'state.yaml') => sandbox.write(`outside/${name}`, `resumption:\n  ${SECRET}`);

  it('a committed ORCHESTRATION.yaml symlink to a file outside the project is not read into the checkpoint or the summariser', async () => {
    symlinkSync(outside(), join(sandbox.project, 'ORCHESTRATION.yaml'));
    const run = await preCompact();
    expect(run.reason).toMatch(/^checkpoint cx-00\d$/);
    expect(run.stdout).not.toContain('OUTSIDE-TEXT');
    expect(checkpoint()).not.toContain('OUTSIDE-TEXT');
    expect(JSON.parse(checkpoint()).orchestration.error).toMatch(/^resolves outside the project; not read$/);
  });

  it.each([
    [
      'a project policy orchestrationFile of ../outside',
      'project/.claude/context-ceiling.json',
      () => ({ orchestrationFile: '../outside/state.yaml' }),
    ],
    ['a project policy absolute orchestrationFile', 'project/.claude/context-ceiling.json', () => ({ orchestrationFile: outside() })],
  ])('%s: ignored, with a warning; the default file is read', async (_name, file, policy) => {
    outside();
    sandbox.write(file, JSON.stringify(policy()));
    sandbox.write('project/ORCHESTRATION.yaml', 'resumption:\n  next_step: the project own step\n');
    const run = await preCompact();
    expect(run.reason).toMatch(/^checkpoint cx-00\d$/);
    expect(checkpoint()).not.toContain('OUTSIDE-TEXT');
    expect(checkpoint()).toContain('the project own step');
    const doctor = await doctorJson();
    expect(doctor.checks.find((c) => c.name === 'config')!.detail).toContain(
      'orchestrationFile ignored: only DEV_TEAM_CONTEXT_ORCHESTRATION, ~/.claude/context-ceiling.json or the policy DEV_TEAM_CONTEXT_POLICY names may set the orchestration file',
    );
  });

  it('DEV_TEAM_CONTEXT_ORCHESTRATION from the repository’s settings env is ignored; from the user, a file outside the project is still not read', async () => {
    const path = outside();
    const fromRepository = await preCompact(commitSettingsEnv({ DEV_TEAM_CONTEXT_ORCHESTRATION: path }));
    expect(fromRepository.exitCode).toBe(0);
    expect(checkpoint()).not.toContain('OUTSIDE-TEXT');
    expect(JSON.parse(checkpoint()).orchestration.path).toBe(join(sandbox.project, 'ORCHESTRATION.yaml'));
    const fromUser = await preCompact({ DEV_TEAM_CONTEXT_ORCHESTRATION: outside('users-own.yaml') });
    expect(fromUser.reason).toMatch(/^checkpoint cx-00\d$/);
    expect(checkpoint(2)).not.toContain('OUTSIDE-TEXT');
    expect(JSON.parse(checkpoint(2)).orchestration.error).toMatch(/^resolves outside the project/);
  });
});

describe('a state directory the guard must refuse never silences it', { tags: ['hook'] }, () => {
  const over = (env: Record<string, string>) =>
    runHook(sandbox, preToolUse(transcriptAt(450_000), 'Agent', {}, { session_id: SESSION, cwd: sandbox.project }), {
      CLAUDE_PROJECT_DIR: sandbox.project,
      ...env,
    });

  it('a state directory of yours whose parents are missing outside your home: not created with its parents; the guard still warns', async () => {
    const state = join(sandbox.root, 'not', 'there', 'state');
    for (let i = 0; i < 2; i += 1)
      expect((await over({ DEV_TEAM_CONTEXT_STATE_DIR: state })).reason).toBe('warn over-ceiling unremembered');
    expect(existsSync(join(sandbox.root, 'not'))).toBe(false);
  });

  // Needs root to give a directory to another uid, which is how a neighbour would plant it.
  it.skipIf(process.getuid?.() !== 0)(
    "another user's directory in its place: every call warns (no dedup to remember with), strict blocks, each saying why",
    async () => {
      const state = join(sandbox.root, 'neighbours');
      mkdirSync(state, { mode: 0o700 });
      chownSync(state, 4242, 4242);
      for (let i = 0; i < 2; i += 1) {
        const run = await over({ DEV_TEAM_CONTEXT_STATE_DIR: state });
        expect(run.reason).toBe('warn over-ceiling unremembered');
        expect(JSON.parse(run.stdout).systemMessage).toContain(`the state directory ${state} cannot be used`);
      }
      const strict = await over({ DEV_TEAM_CONTEXT_STATE_DIR: state, DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '1000000' });
      expect(strict.reason).toBe('block over-ceiling-blocked');
      expect(readdirSync(state)).toEqual([]);
    },
  );
});
