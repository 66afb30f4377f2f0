/** The status line command as Claude Code runs it, and the hooks using the window it bridges. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { EACH_CLIENT } from '../helpers/real-clients.js';
import { expectBlocked } from '../helpers/guard-runners.js';
import { expectSilent, FIXTURES, makeSandbox, preToolUse, ROOT, runCli, runCliOk, runHook, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const SESSION = 'e5f74ece-445c-474e-817a-0891f9d160cb';
const afterTurn = readFileSync(join(FIXTURES, 'statusline-after-turn.json'), 'utf8');
const statusline = (input: string, env: Record<string, string> = {}, args: string[] = []) =>
  execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs'), ...args], {
    input,
    env: sandbox.env(env),
    extendEnv: false,
    cwd: sandbox.project,
    reject: false,
  });
const reportFile = (session = SESSION) => join(sandbox.home, '.local', 'state', 'context-ceiling', 'statusline', `${session}.json`);

describe('statusline', () => {
  it.each(EACH_CLIENT)(
    'prints one line and records the session’s window (input recorded from %s)',
    async (version, { dir, statusAfterTurn }) => {
      const run = await statusline(readFileSync(join(dir, 'statusline-after-turn.json'), 'utf8'));
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toBe(statusAfterTurn.line);
      const record = JSON.parse(readFileSync(reportFile(statusAfterTurn.sessionId), 'utf8'));
      expect(record).toMatchObject({
        sessionId: statusAfterTurn.sessionId,
        windowTokens: 1_000_000,
        usageTokens: statusAfterTurn.usageTokens,
        modelId: 'claude-opus-5-5',
        version,
      });
      expect(Date.parse(record.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
    },
  );

  it('colours when NO_COLOR is not set', async () => {
    const env = sandbox.env();
    delete (env as Record<string, string | undefined>).NO_COLOR;
    const run = await execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs')], {
      input: afterTurn,
      env,
      extendEnv: false,
      reject: false,
    });
    expect(run.stdout).toContain('\u001b[32m278,995 to the 40% ceiling\u001b[0m');
    expect(run.stdout).toContain('\u001b[32m▕█░░░│░░░░░░▏\u001b[0m');
  });

  it('--no-color and NO_COLOR leave no ANSI colour (each alone: the sandbox sets NO_COLOR, so --no-color runs without it)', async () => {
    const run = (env: Record<string, string | undefined>, args: string[] = []) =>
      execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs'), ...args], {
        input: afterTurn,
        env: { ...sandbox.env(), NO_COLOR: undefined, ...env },
        extendEnv: false,
        reject: false,
      });
    expect((await run({})).stdout).toContain('\u001b[');
    expect((await run({}, ['--no-color'])).stdout).toBe('ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling');
    expect((await run({ NO_COLOR: '1' })).stdout).toBe('ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling');
    // no-color.org: an empty NO_COLOR does not count.
    expect((await run({ NO_COLOR: '' })).stdout).toContain('\u001b[');
  });

  it('fits COLUMNS, dropping the least useful parts first', async () => {
    expect((await statusline(afterTurn, { COLUMNS: '40' })).stdout).toBe('ctx 12% ▕█░░░│░░░░░░▏ ceiling 40%');
  });

  // Claude Code 2.1.331 sends current_usage null right after /compact (2.1.328 all zeros): the number it shows is the
  // compacted size it wrote to the transcript (compact_boundary's postTokens), never 0/1,000,000 or "no turn yet".
  it.each([
    ['null', null],
    ['all zeros', { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }],
  ])('right after /compact (current_usage %s) it shows the compacted size from the transcript', async (_name, usage) => {
    const transcript = sandbox.write(
      'claude/compacted.jsonl',
      aTranscript().assistant({ cacheRead: 450_000 }).compactBoundary({ trigger: 'manual', postTokens: 18_912 }).toString(),
    );
    const input = JSON.stringify({
      session_id: SESSION,
      transcript_path: transcript,
      model: { id: 'claude-opus-5-5' },
      context_window: { context_window_size: 1_000_000, current_usage: usage, used_percentage: null },
    });
    const run = await statusline(input);
    expect(run.stdout).toBe('ctx 1% ▕░░░░│░░░░░░▏ 18,912/1,000,000 · since compaction · 381,088 to the 40% ceiling');
  });

  // The pair as Claude Code 2.1.331 and 2.1.332 leave it after an interactive /compact with no turn since: its status
  // line input (current_usage null) and its transcript (ends with the boundary and the summary). PostCompact ran
  // before Claude Code counted postTokens (read in the client), so only the boundary can say what it shows.
  it.each([
    ['2.1.331', '2,647', '397,353'],
    ['2.1.332', '2,634', '397,366'],
  ])(
    'right after /compact, no turn yet, on Claude Code %s’s own input and transcript: the compacted size it recorded (%s)',
    async (version, size, left) => {
      const real = join(ROOT, 'test', 'fixtures', `claude-code-${version}`);
      const transcript = sandbox.write('claude/compacted.jsonl', readFileSync(join(real, 'skill-then-manual-compact.jsonl'), 'utf8'));
      const input = { ...JSON.parse(readFileSync(join(real, 'statusline-after-compact.json'), 'utf8')), transcript_path: transcript };
      expect(input.context_window).toMatchObject({ current_usage: null, used_percentage: null, total_input_tokens: 0 });
      const run = await statusline(JSON.stringify(input));
      expect(run.stdout).toBe(`ctx <1% ▕░░░░│░░░░░░▏ ${size}/1,000,000 · since compaction · ${left} to the 40% ceiling`);
      expect(JSON.parse(readFileSync(reportFile(input.session_id), 'utf8'))).toMatchObject({ windowTokens: 1_000_000, usageTokens: null });
    },
  );

  it('right after a compaction whose size was not recorded it says so, never "no turn yet"', async () => {
    const transcript = sandbox.write(
      'claude/compacted.jsonl',
      aTranscript().assistant({ cacheRead: 450_000 }).compactBoundary({ trigger: 'manual' }).toString(),
    );
    const input = JSON.stringify({
      session_id: SESSION,
      transcript_path: transcript,
      context_window: { context_window_size: 1_000_000, current_usage: null },
    });
    expect((await statusline(input)).stdout).toBe('ctx –/1,000,000 compacted, no turn since · ceiling 40%');
  });

  it('over the ceiling it says so, and how far Claude Code’s compaction is (its point moved by CLAUDE_AUTOCOMPACT_PCT_OVERRIDE)', async () => {
    const input = JSON.stringify({
      session_id: SESSION,
      context_window: { context_window_size: 1_000_000, current_usage: { input_tokens: 5, cache_read_input_tokens: 450_000 } },
    });
    expect((await statusline(input)).stdout).toBe('ctx 45% ▕████│█░░░░░▏ 450,005/1,000,000 · over the 40% ceiling · 516,995 to compaction');
    expect((await statusline(input, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' })).stdout).toBe(
      'ctx 45% ▕████│█░░░░░▏ 450,005/1,000,000 · over the 40% ceiling · 39,995 to compaction',
    );
  });

  it('--wrap keeps the user’s own status line, with ours appended', async () => {
    const run = await statusline(afterTurn, {}, [
      '--wrap',
      `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log('mine: '+JSON.parse(s).model.display_name))"`,
    ]);
    expect(run.stdout).toBe('mine: Opus 5.5  ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling');
  });

  it('a failing wrapped command leaves ours alone', async () => {
    expect((await statusline(afterTurn, {}, ['--wrap', 'exit 3'])).stdout).toBe(
      'ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling',
    );
  });

  it('garbage input prints nothing and exits 0', async () => {
    for (const input of ['', 'nope', '[]', '{"session_id": 1}']) expect(await statusline(input)).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('through the bin as well', async () => {
    expect((await runCliOk(sandbox, ['statusline'], {}, afterTurn)).stdout).toBe(
      'ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling\n',
    );
  });
});

describe("hooks use the window Claude Code's status line reported for the session", { tags: ['hook'] }, () => {
  const transcriptAt = (tokens: number, model = 'claude-opus-5-5') =>
    sandbox.write(
      't.jsonl',
      aTranscript()
        .assistant({ cacheRead: tokens - 5, model })
        .toString(),
    );
  /** The recorded input, reporting `window` for the session's model instead of 1,000,000. */
  const reporting = (window: number, model = 'claude-opus-5-5') => {
    const input = JSON.parse(afterTurn);
    return JSON.stringify({
      ...input,
      model: { ...input.model, id: model },
      context_window: { ...input.context_window, context_window_size: window },
    });
  };
  const strictSkill = (transcript: string) =>
    runHook(sandbox, preToolUse(transcript, 'Skill', { skill: 'x' }, { session_id: SESSION }), { DEV_TEAM_CONTEXT_STRICT: 'on' });

  it("the report beats the model's table, and the guard says the window came from the status line", async () => {
    await statusline(reporting(400_000));
    const { model } = expectBlocked(await strictSkill(transcriptAt(200_000)));
    expect(model).toMatch(/context is at 50% \(200,000 of 400,000 tokens; window: status line, \d+s old\)/);
  });

  it('without a report the same call is judged against the model: 20 % of 1,000,000, silent', async () => {
    expectSilent(await strictSkill(transcriptAt(200_000)), 'allow below-ceiling');
  });

  it('DEV_TEAM_CONTEXT_WINDOW still wins over the report', async () => {
    await statusline(afterTurn);
    const run = await runHook(sandbox, preToolUse(transcriptAt(300_000), 'Skill', { skill: 'x' }, { session_id: SESSION }), {
      DEV_TEAM_CONTEXT_STRICT: 'on',
      DEV_TEAM_CONTEXT_WINDOW: '400000',
    });
    expect(expectBlocked(run).model).toContain('75% (300,000 of 400,000 tokens; window: env)');
  });

  it('a stale report is not used', async () => {
    await statusline(reporting(400_000));
    const record = JSON.parse(readFileSync(reportFile(), 'utf8'));
    sandbox.write(
      reportFile().slice(sandbox.root.length + 1),
      JSON.stringify({ ...record, updatedAt: new Date(Date.now() - 2 * 86_400_000).toISOString() }),
    );
    expectSilent(await strictSkill(transcriptAt(200_000)), 'allow below-ceiling');
  });

  it('a turn of another model (a subagent’s haiku) does not use the main model’s report', async () => {
    await statusline(reporting(400_000));
    const { model } = expectBlocked(await strictSkill(transcriptAt(150_000, 'claude-haiku-4-5')));
    expect(model).toContain('75% (150,000 of 200,000 tokens; window: model claude-haiku-4-5)');
  });

  it('the monitor and status name the status line too', async () => {
    await statusline(reporting(800_000));
    const monitor = await runHook(
      sandbox,
      { session_id: SESSION, transcript_path: transcriptAt(600_000), cwd: sandbox.project },
      {},
      'hook',
      'user-prompt-submit',
    );
    expect(JSON.parse(monitor.stdout).hookSpecificOutput.additionalContext).toMatch(
      /Context 75% \(600,000 of 800,000 tokens, window: status line, \d+s old\)/,
    );
    const transcript = sandbox.write(
      `${SESSION}.jsonl`,
      aTranscript()
        .assistant({ cacheRead: 80_000 - 5 })
        .toString(),
    );
    const status = JSON.parse((await runCliOk(sandbox, ['status', '--transcript', transcript, '--json'])).stdout);
    expect(status).toMatchObject({ window: 800_000, windowSource: 'statusline', percent: 10 });
  });
});

describe('install --statusline', () => {
  const cli = (args: string[]) => runCli(sandbox, args, { CLAUDE_PROJECT_DIR: sandbox.project });
  const settings = () => JSON.parse(readFileSync(join(sandbox.project, '.claude', 'settings.json'), 'utf8'));

  it('wires our status line, wrapping an existing one; uninstall restores it', async () => {
    const mine = { type: 'command', command: "echo 'my line'", padding: 1 };
    sandbox.write('project/.claude/settings.json', JSON.stringify({ statusLine: mine }));
    expect((await cli(['install', '--statusline'])).exitCode).toBe(0);
    const wired = settings().statusLine;
    const ours = `"$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime/statusline.cjs" --wrap 'echo '\\''my line'\\'''`;
    expect(wired.command).toBe(
      `if command -v bun >/dev/null 2>&1; then exec bun ${ours}; else exec node --preserve-symlinks-main ${ours}; fi`,
    );
    const shown = await execa('bash', ['-c', wired.command], {
      input: afterTurn,
      env: sandbox.env({ CLAUDE_PROJECT_DIR: sandbox.project }),
      extendEnv: false,
    });
    expect(shown.stdout).toBe('my line  ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling');
    expect((await cli(['install', '--statusline'])).stdout).toMatch(/nothing changed/);
    await cli(['uninstall']);
    expect(settings()).toEqual({ statusLine: mine });
    expect(readdirSync(join(sandbox.project, '.claude')).filter((f) => f.startsWith('context-ceiling'))).toEqual([]);
  });

  it('without an existing status line, uninstall removes ours', async () => {
    await cli(['install', '--statusline']);
    const ours = '"$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime/statusline.cjs"';
    expect(settings().statusLine.command).toBe(
      `if command -v bun >/dev/null 2>&1; then exec bun ${ours}; else exec node --preserve-symlinks-main ${ours}; fi`,
    );
    await cli(['uninstall']);
    expect(settings()).toEqual({});
  });
});

describe('statusline --wrap with a multi-line status line', () => {
  it('appends ours to the first line, keeps the rest', async () => {
    const run = await execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'statusline.cjs'), '--wrap', 'printf "one\\ntwo\\n"'], {
      input: afterTurn,
      env: sandbox.env(),
      extendEnv: false,
      reject: false,
    });
    expect(run.stdout).toBe('one  ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling\ntwo');
  });
});
