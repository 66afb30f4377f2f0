/** The CLI as a user runs it: the built bin, an explicit env, a temp HOME. */
import { copyFileSync, mkdirSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { REAL_CLIENTS } from '../helpers/real-clients.js';
import { FIXTURES, makeSandbox, ROOT, runCli, runCliOk, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

/** Where Claude Code keeps this sandbox project's transcripts. */
const projectFolder = () => join(sandbox.home, '.claude', 'projects', sandbox.project.replace(/[^a-zA-Z0-9]/g, '-'));

describe('help and errors', () => {
  it('--help lists the commands and exits 0', async () => {
    const run = await runCliOk(sandbox, ['--help']);
    expect(run.exitCode).toBe(0);
    for (const command of ['hook', 'status', 'config', 'demo']) expect(run.stdout).toContain(command);
  });

  it.each(['status', 'config', 'hook', 'demo'])('%s --help exits 0 with usage', async (command) => {
    const run = await runCliOk(sandbox, [command, '--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^Usage: context-ceiling /);
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect((await runCliOk(sandbox, ['--version'])).stdout).toBe(`${version}\n`);
  });

  it.each([
    [['frobnicate'], 'context-ceiling: unknown command "frobnicate"'],
    [['status', '--bogus'], 'context-ceiling: unknown option --bogus'],
    [['status', 'extra'], 'context-ceiling: unexpected argument "extra"'],
    [['status', '--transcript'], 'context-ceiling: --transcript needs a value'],
    [['config'], 'context-ceiling: config needs a subcommand'],
    [['config', 'get'], 'context-ceiling: config get needs exactly one KEY'],
    [['config', 'get', 'nope'], 'context-ceiling: unknown key "nope"'],
    [['hook', 'post-nothing'], 'context-ceiling: unknown hook event "post-nothing"'],
  ])('%j: one clear line, exit 1', async (args, message) => {
    const run = await runCli(sandbox, args);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toContain(message);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('status', () => {
  it('--transcript --json: occupancy, window and source, percent, tier, verdicts', async () => {
    const run = await runCliOk(sandbox, ['status', '--transcript', join(FIXTURES, 'auto-compact.jsonl'), '--json'], {
      DEV_TEAM_CONTEXT_WINDOW: '1000000',
    });
    expect(run.exitCode).toBe(0);
    const status = JSON.parse(run.stdout);
    expect(status).toMatchObject({
      occupancy: 951_005,
      window: 1_000_000,
      windowSource: 'env',
      percent: 95.1,
      tier: 'EMERGENCY',
      ceilingPct: 40,
      verdicts: { Agent: { kind: 'warn', messageId: 'over-ceiling' }, Skill: { kind: 'warn', messageId: 'over-ceiling' } },
    });
  });

  it('under 1 % reads "<1%", as the monitor and status line say it (the sanitiser for outside text would make it "‹1%")', async () => {
    const transcript = join(ROOT, 'test', 'fixtures', 'claude-code-2.1.331', 'auto-compact.jsonl');
    const run = await runCliOk(sandbox, ['status', '--transcript', transcript]);
    expect(run.stdout).toContain('\nOccupancy   3,505 tokens (latest main-thread turn)\n');
    expect(run.stdout).toContain('\nPercent     <1%\n');
  });

  it('strict mode on an assumed window (a model with a 1M variant nothing picks) shows warn verdicts, and says why it is assumed', async () => {
    const transcript = sandbox.write(
      't.jsonl',
      aTranscript()
        .assistant({ cacheRead: 100_000 - 5, model: 'claude-sonnet-4-5-20250929' })
        .toString(),
    );
    const status = JSON.parse(
      (await runCliOk(sandbox, ['status', '--transcript', transcript, '--json'], { DEV_TEAM_CONTEXT_STRICT: 'on' })).stdout,
    );
    expect(status).toMatchObject({
      occupancy: 100_000,
      window: 200_000,
      windowSource: 'assumed',
      windowVerified: false,
      percent: 50,
      tier: 'OVER_CEILING',
      strict: true,
      verdicts: { Agent: { kind: 'warn', messageId: 'over-ceiling-assumed-window' }, Skill: { kind: 'warn' } },
      // Seed 004's "estimated remaining": over the ceiling by 20,000; Claude Code compacts a 200,000 window at about 167,000.
      tokensToCeiling: -20_000,
      compactAt: 167_000,
      tokensToCompaction: 67_000,
    });
    const human = (await runCliOk(sandbox, ['status', '--transcript', transcript], { DEV_TEAM_CONTEXT_STRICT: 'on' })).stdout;
    expect(human).toContain("Left        20,000 over the ceiling; 67,000 to Claude Code's compaction (~167,000)");
    expect(human).toContain(
      '200,000 tokens, assumed (claude-sonnet-4-5; with [1m] it has 1,000,000, and nothing here says which); state it: DEV_TEAM_CONTEXT_WINDOW=1000000 (your model\'s window in tokens), or a policy "window"',
    );
  });

  it('strict mode on a stated window shows block verdicts', async () => {
    const transcript = sandbox.write(
      't.jsonl',
      aTranscript()
        .assistant({ cacheRead: 100_000 - 5 })
        .toString(),
    );
    const status = JSON.parse(
      (
        await runCliOk(sandbox, ['status', '--transcript', transcript, '--json'], {
          DEV_TEAM_CONTEXT_STRICT: 'on',
          DEV_TEAM_CONTEXT_WINDOW: '200000',
        })
      ).stdout,
    );
    expect(status).toMatchObject({
      window: 200_000,
      windowSource: 'env',
      strict: true,
      verdicts: { Agent: { kind: 'block' }, Skill: { kind: 'block' } },
    });
  });

  it('human output names every number and what the guard would do', async () => {
    const transcript = sandbox.write(
      't.jsonl',
      aTranscript()
        .assistant({ cacheRead: 100_000 - 5 })
        .toString(),
    );
    const run = await runCliOk(sandbox, ['status', '--transcript', transcript]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('100,000 tokens (latest main-thread turn)');
    expect(run.stdout).toContain('1,000,000 tokens (model claude-opus-5-5)');
    expect(run.stdout).toMatch(/Percent\s+10%/);
    expect(run.stdout).toMatch(/Tier\s+NOMINAL/);
    expect(run.stdout).toContain(
      'Agent: allow (below-ceiling) · Task: allow (below-ceiling) · Skill: allow (below-ceiling) · Workflow: allow (below-ceiling) · recovery skills: allow',
    );
    expect(run.stdout).not.toMatch(/\u001b\[/); // no colour when not a TTY
  });

  it('after a compaction without a new turn it says so plainly', async () => {
    for (const { dir, manualCompact } of REAL_CLIENTS) {
      const run = await runCliOk(sandbox, ['status', '--transcript', join(dir, 'skill-then-manual-compact.jsonl'), '--json']);
      expect(JSON.parse(run.stdout)).toMatchObject({ occupancy: manualCompact.tokens, occupancySource: 'compaction', tier: 'NOMINAL' });
    }
    const unknown = sandbox.write(
      'u.jsonl',
      aTranscript().assistant({ cacheRead: 100_000 }).compactBoundary({ trigger: 'manual' }).toString(),
    );
    const human = await runCliOk(sandbox, ['status', '--transcript', unknown]);
    expect(human.stdout).toContain('unknown since compaction');
    expect(human.stdout).toMatch(/Tier\s+UNKNOWN/);
  });

  it('with no option: the newest transcript of the current project under ~/.claude/projects', async () => {
    const folder = projectFolder();
    mkdirSync(folder, { recursive: true });
    const old = join(folder, 'old-session.jsonl');
    copyFileSync(join(FIXTURES, 'auto-compact.jsonl'), old);
    utimesSync(old, new Date('2026-01-01'), new Date('2026-01-01'));
    sandbox.write(
      `home/.claude/projects/${folder.split('/').pop()}/new-session.jsonl`,
      aTranscript()
        .assistant({ cacheRead: 30_000 - 5 })
        .toString(),
    );
    const status = JSON.parse((await runCliOk(sandbox, ['status', '--json'])).stdout);
    expect(status.transcript).toBe(join(folder, 'new-session.jsonl'));
    expect(status.occupancy).toBe(30_000);
  });

  it('--session ID finds that session', async () => {
    const folder = projectFolder();
    mkdirSync(folder, { recursive: true });
    copyFileSync(join(FIXTURES, 'auto-compact.jsonl'), join(folder, 'abc.jsonl'));
    const status = JSON.parse((await runCliOk(sandbox, ['status', '--session', 'abc', '--json'])).stdout);
    expect(status.occupancy).toBe(951_005);
  });

  it('no transcript anywhere: a clear error, exit 1', async () => {
    const run = await runCli(sandbox, ['status']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      /^context-ceiling: no transcript found in .*; run inside a Claude Code project or pass --transcript FILE\n$/,
    );
  });

  it('an unreadable --transcript: a clear error, exit 1', async () => {
    const run = await runCli(sandbox, ['status', '--transcript', join(sandbox.root, 'missing.jsonl')]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`context-ceiling: cannot read ${join(sandbox.root, 'missing.jsonl')}: no such file or directory (ENOENT)\n`);
  });

  it('an invalid policy file: path: key: message, exit 1', async () => {
    const policy = sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ ceilingPct: 140 }));
    const run = await runCli(sandbox, ['status', '--transcript', join(FIXTURES, 'auto-compact.jsonl')]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`context-ceiling: ${policy}: ceilingPct: must be at most 100\n`);
  });
});

describe('config', () => {
  it('show: every value with where it came from', async () => {
    sandbox.write('home/.claude/context-ceiling.json', JSON.stringify({ extends: 'strict-ci', ceilingPct: 30 }));
    const run = await runCliOk(sandbox, ['config', 'show'], { DEV_TEAM_CONTEXT_WINDOW: '1000000' });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^ceilingPct\s+30\s+user \(.*context-ceiling\.json\)$/m);
    expect(run.stdout).toMatch(/^strict\s+true\s+preset \(strict-ci, extended by .*\)$/m);
    expect(run.stdout).toMatch(/^window\s+1000000\s+env$/m);
    expect(run.stdout).toMatch(/^tools\.Skill\s+auto\s+default$/m);
  });

  it('show --json', async () => {
    const run = await runCliOk(sandbox, ['config', 'show', '--json'], { DEV_TEAM_CONTEXT_CEILING_PCT: '25' });
    const shown = JSON.parse(run.stdout);
    expect(shown.settings).toContainEqual({ key: 'ceilingPct', value: 25, source: 'env', detail: null });
    expect(shown.files.map((f: { role: string }) => f.role)).toEqual(['user', 'project']);
  });

  it('show reports ignored malformed env values as warnings on stderr', async () => {
    const run = await runCli(sandbox, ['config', 'show'], { DEV_TEAM_CONTEXT_WINDOW: 'huge' });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe(
      'context-ceiling: warning: DEV_TEAM_CONTEXT_WINDOW="huge" ignored: expected a whole number from 1000 to 100000000\n',
    );
  });

  it('get KEY: value and source; --json', async () => {
    expect((await runCliOk(sandbox, ['config', 'get', 'ceilingPct'], { DEV_TEAM_CONTEXT_CEILING_PCT: '25' })).stdout).toBe(
      'ceilingPct = 25  (env)\n',
    );
    expect(JSON.parse((await runCliOk(sandbox, ['config', 'get', 'strict', '--json'])).stdout)).toEqual({
      key: 'strict',
      value: false,
      source: 'default',
      detail: null,
    });
    expect((await runCliOk(sandbox, ['config', 'get', 'tools'])).stdout).toBe(
      'tools.Agent = auto  (default)\ntools.Task = auto  (default)\ntools.Skill = auto  (default)\ntools.Workflow = auto  (default)\n',
    );
  });

  it('validate FILE: ok, or path: key: message lines and exit 1', async () => {
    const good = sandbox.write('good.json', JSON.stringify({ strict: true }));
    expect(await runCliOk(sandbox, ['config', 'validate', good])).toMatchObject({ exitCode: 0, stdout: `${good}: ok\n` });
    const bad = sandbox.write('bad.json', JSON.stringify({ strict: 'on', tools: { Skill: 'deny' }, ceilingPC: 4 }));
    const run = await runCli(sandbox, ['config', 'validate', bad]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr.trim().split('\n').sort()).toEqual(
      [
        `context-ceiling: ${bad}: strict: must be a boolean`,
        `context-ceiling: ${bad}: tools.Skill: must be one of "auto", "warn", "block", "off"`,
        `context-ceiling: ${bad}: unknown key "ceilingPC"`,
      ].sort(),
    );
  });

  it('validate with no FILE checks every layer', async () => {
    sandbox.write('project/.claude/context-ceiling.json', '{ nope');
    const run = await runCli(sandbox, ['config', 'validate']);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/^project .*context-ceiling\.json: invalid$/m);
    expect(run.stderr).toMatch(/not valid JSON/);
    sandbox.write('project/.claude/context-ceiling.json', '{}');
    expect((await runCliOk(sandbox, ['config', 'validate'])).exitCode).toBe(0);
  });

  it('every preset shipped in policies/ validates', async () => {
    for (const preset of ['default', 'strict-ci', 'large-window', 'strict-skills']) {
      expect((await runCliOk(sandbox, ['config', 'validate', join(ROOT, 'policies', `${preset}.json`)])).exitCode).toBe(0);
    }
  });
});

describe('demo (the README’s first command)', () => {
  it('shows allow, warn, dedup, block and recovery on built-in data, nothing configured, with no Claude Code present', async () => {
    const run = await runCliOk(sandbox, ['demo', '--json']);
    const runs = JSON.parse(run.stdout) as Array<{
      title: string;
      exitCode: number;
      stdout: null | { systemMessage?: string; hookSpecificOutput?: { additionalContext?: string; permissionDecision?: string } };
      stderr: string;
    }>;
    const outcome = (r: (typeof runs)[number]) =>
      r.stdout === null ? 'silent' : r.stdout.hookSpecificOutput?.permissionDecision === 'deny' ? 'blocked' : 'warned';
    expect(runs.map((r) => [r.exitCode, outcome(r)])).toEqual([
      [0, 'silent'],
      [0, 'warned'],
      [0, 'silent'],
      [0, 'warned'],
      [0, 'blocked'],
      [0, 'silent'],
      [0, 'blocked'],
      [0, 'silent'],
      [0, 'silent'],
    ]);
    expect(runs[1]!.stdout?.hookSpecificOutput?.additionalContext).toContain(
      '45% (450,000 of 1,000,000 tokens; window: model claude-opus-5-5)',
    );
    expect(runs[1]!.stdout?.hookSpecificOutput?.additionalContext).toContain('/context-summarization');
    const human = await runCliOk(sandbox, ['demo']);
    expect(human.stdout).toContain('model is told:');
    expect(human.stdout).toContain('model reads (call denied):');
    expect(human.stdout).toContain('BLOCK (a deny decision)');
  });
});
