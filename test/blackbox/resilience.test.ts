/** PreCompact, UserPromptSubmit, SessionStart and PostToolUse, run as Claude Code runs them, on real files in temp projects. */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { FIXTURES, makeSandbox, ROOT, runCli, runCliOk, runHook, type HookRun, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const SESSION = '23a83752-3e60-4380-a61e-938c7063d518';
const hook = (event: string, input: Record<string, unknown>, env: Record<string, string> = {}) =>
  runHook(sandbox, { session_id: SESSION, cwd: sandbox.project, ...input }, { CLAUDE_PROJECT_DIR: sandbox.project, ...env }, 'hook', event);
const context = (run: HookRun) => (run.stdout ? (JSON.parse(run.stdout).hookSpecificOutput?.additionalContext as string | undefined) : undefined);
const checkpointDir = (session = SESSION) => join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints', session);
const transcriptAt = (tokens: number, name = 'main.jsonl') => sandbox.write(`claude/${name}`, aTranscript().user('go').assistant({ cacheRead: tokens - 5 }).toString());

const ORCHESTRATION = `header:
  workflow_id: FEAT-015
  project_id: PROJ-001
resumption:
  current_phase: 2
  current_phase_name: Core License Changes
  current_activity: qg-2-iteration-1
  next_step: Apply the DA-001 fix, then re-score
  critical_context: DA-001 copyright holder mismatch between NOTICE and the header template.
  updated_at: ${new Date().toISOString()}
  decisions:
    - id: RD-001
      decision: Align copyright holder to 'Adam Nowak'
      applied: false
`;

const preCompact = (trigger = 'auto', transcript = transcriptAt(180_000), env: Record<string, string> = {}) =>
  hook('pre-compact', { transcript_path: transcript, hook_event_name: 'PreCompact', trigger, custom_instructions: null }, env);
const prompt = (transcript: string, env: Record<string, string> = {}, session = SESSION) =>
  hook('user-prompt-submit', { session_id: session, transcript_path: transcript, hook_event_name: 'UserPromptSubmit', prompt: 'go on' }, env);
const sessionStart = (source: string, session = SESSION, transcript = transcriptAt(3_000, `${session}.jsonl`)) =>
  hook('session-start', { session_id: session, transcript_path: transcript, hook_event_name: 'SessionStart', source });

describe('PreCompact', () => {
  it('writes a complete checkpoint: trigger, context state, resumption section, git branch, cwd, session; and tells the user', async () => {
    execFileSync('git', ['init', '-q', '-b', 'feature/license'], { cwd: sandbox.project });
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    const run = await preCompact('auto');
    expect(run.exitCode).toBe(0);
    const path = join(checkpointDir(), 'cx-001-checkpoint.json');
    // Plain text for the summariser, never JSON (Claude Code would show JSON to the person raw)
    expect(run.stdout).toBe(
      [
        `context-ceiling: this compaction is checkpointed as cx-001 (.claude/context-ceiling/checkpoints/${SESSION}/cx-001-checkpoint.json).`,
        'Context at compaction: 90% (180,000 of 200,000 tokens, window: default), tier EMERGENCY; auto compaction.',
        'The work continues after this summary. Keep these items in it, verbatim, under Pending Tasks, Current Work and Optional Next Step:',
        '- Next step: Apply the DA-001 fix, then re-score',
        '- Phase: 2 (Core License Changes)',
        '- Current activity: qg-2-iteration-1',
        "- Open decision: RD-001: Align copyright holder to 'Adam Nowak'",
        'Name checkpoint cx-001 and the resumption section of ORCHESTRATION.yaml as where the full state is kept.',
        '',
      ].join('\n'),
    );
    const checkpoint = JSON.parse(readFileSync(path, 'utf8'));
    expect(checkpoint).toMatchObject({
      id: 'cx-001',
      sequence: 1,
      sessionId: SESSION,
      trigger: { type: 'auto', customInstructions: null },
      context: { occupancy: 180_000, state: 'measured', percent: 90, tier: 'EMERGENCY', window: 200_000, windowSource: 'default', ceilingPct: 40 },
      orchestration: { path: join(sandbox.project, 'ORCHESTRATION.yaml'), status: 'loaded', header: { workflow_id: 'FEAT-015' }, resumption: { current_phase: 2, next_step: 'Apply the DA-001 fix, then re-score' } },
      session: { cwd: sandbox.project, projectDir: sandbox.project, gitBranch: 'feature/license' },
      acknowledged: false,
    });
    expect(Date.parse(checkpoint.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    expect(readdirSync(checkpointDir())).toEqual(['cx-001-checkpoint.json']); // no temp file left behind
  });

  it('manual trigger and custom instructions are recorded', async () => {
    const run = await hook('pre-compact', { transcript_path: transcriptAt(50_000), trigger: 'manual', custom_instructions: 'keep the license notes' });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(checkpointDir(), 'cx-001-checkpoint.json'), 'utf8')).trigger).toEqual({ type: 'manual', customInstructions: 'keep the license notes' });
  });

  it('never overwrites: each call takes the next number', async () => {
    await preCompact();
    await preCompact('manual');
    expect(readdirSync(checkpointDir()).sort()).toEqual(['cx-001-checkpoint.json', 'cx-002-checkpoint.json']);
    expect(JSON.parse(readFileSync(join(checkpointDir(), 'cx-002-checkpoint.json'), 'utf8')).trigger.type).toBe('manual');
  });

  it('20 concurrent calls write 20 distinct, complete, valid checkpoints', async () => {
    const transcript = transcriptAt(120_000);
    const runs = await Promise.all(Array.from({ length: 20 }, () => preCompact('auto', transcript)));
    expect(runs.every((run) => run.exitCode === 0 && run.stdout.includes('is checkpointed as'))).toBe(true);
    const files = readdirSync(checkpointDir()).sort();
    expect(files).toEqual(Array.from({ length: 20 }, (_, i) => `cx-${String(i + 1).padStart(3, '0')}-checkpoint.json`));
    const ids = files.map((file) => JSON.parse(readFileSync(join(checkpointDir(), file), 'utf8')).id);
    expect(new Set(ids).size).toBe(20);
    expect(new Set(runs.map((run) => run.stdout.match(/cx-\d+/)![0])).size).toBe(20);
  });

  it('malformed YAML is recorded as unavailable, not fatal', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', 'resumption:\n  next_step: [unclosed\n');
    expect((await preCompact()).exitCode).toBe(0);
    const checkpoint = JSON.parse(readFileSync(join(checkpointDir(), 'cx-001-checkpoint.json'), 'utf8'));
    expect(checkpoint.orchestration).toMatchObject({ status: 'unavailable', resumption: null });
    expect(checkpoint.orchestration.error).toMatch(/^malformed YAML: line \d+, column \d+/);
  });

  it('no orchestration file: recorded as missing; the path is configurable', async () => {
    await preCompact();
    expect(JSON.parse(readFileSync(join(checkpointDir(), 'cx-001-checkpoint.json'), 'utf8')).orchestration.status).toBe('missing');
    sandbox.write('project/plans/STATE.yaml', ORCHESTRATION);
    await preCompact('auto', transcriptAt(10_000), { DEV_TEAM_CONTEXT_ORCHESTRATION: 'plans/STATE.yaml' });
    expect(JSON.parse(readFileSync(join(checkpointDir(), 'cx-002-checkpoint.json'), 'utf8')).orchestration).toMatchObject({ status: 'loaded', path: join(sandbox.project, 'plans', 'STATE.yaml') });
  });

  it('a real Claude Code transcript (auto-compact.jsonl) at the 1M window', async () => {
    const transcript = join(sandbox.root, 'auto.jsonl');
    copyFileSync(join(FIXTURES, 'auto-compact.jsonl'), transcript);
    await preCompact('auto', transcript, { DEV_TEAM_CONTEXT_WINDOW: '1000000' });
    expect(JSON.parse(readFileSync(join(checkpointDir(), 'cx-001-checkpoint.json'), 'utf8')).context).toMatchObject({ occupancy: 951_005, percent: 95.1, tier: 'EMERGENCY', windowSource: 'env' });
  });

  it('session ids cannot escape the checkpoint directory', async () => {
    await hook('pre-compact', { session_id: '../../../escape', transcript_path: transcriptAt(1_000), trigger: 'auto' });
    expect(readdirSync(join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints'))).toEqual(['_________escape']);
    expect(existsSync(join(sandbox.root, 'escape'))).toBe(false);
  });

  // Root ignores permission bits, so as root this case cannot happen; the next one fails the write another way.
  it.skipIf(process.getuid?.() === 0)('an unwritable project fails open with no output (needs a non-root uid: root writes anywhere)', async () => {
    execFileSync('chmod', ['555', sandbox.project]);
    expect(await preCompact()).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('a checkpoint folder that cannot be created (a file is in its place) fails open with no output, also as root', async () => {
    sandbox.write('project/.claude/context-ceiling', 'not a directory');
    expect(await preCompact()).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(sandbox.project, '.claude', 'context-ceiling'), 'utf8')).toBe('not a directory');
  });

  it('a planted symlink in place of the checkpoint folder is refused, nothing written through it', async () => {
    const elsewhere = join(sandbox.root, 'elsewhere');
    sandbox.write('elsewhere/.keep', '');
    sandbox.write('project/.claude/context-ceiling/.keep', '');
    execFileSync('ln', ['-s', elsewhere, join(sandbox.project, '.claude', 'context-ceiling', 'checkpoints')]);
    expect(await preCompact()).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(readdirSync(elsewhere)).toEqual(['.keep']);
  });

  it('disabled: nothing written', async () => {
    expect(await preCompact('auto', transcriptAt(1_000), { DEV_TEAM_CONTEXT_CEILING: 'off' })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(existsSync(checkpointDir())).toBe(false);
  });
});

describe('UserPromptSubmit', () => {
  it('injects the <context-monitor> block with the tier', async () => {
    sandbox.write('home/.claude/skills/context-summarization/SKILL.md', '---\nname: context-summarization\ndescription: d\n---\n');
    const text = context(await prompt(transcriptAt(144_000)));
    expect(text).toBe(readFileSync(join(ROOT, 'test', 'golden', 'monitor-warning.txt'), 'utf8'));
  });

  it('without an installed recovery skill the monitor points to /compact, never to a skill that is not there', async () => {
    const text = context(await prompt(transcriptAt(144_000)));
    expect(text).toContain('Run /compact before loading any agent or skill.');
    expect(text).not.toContain('context-summarization');
  });

  it('reports "unknown since compaction" honestly', async () => {
    const transcript = sandbox.write('claude/c.jsonl', aTranscript().assistant({ cacheRead: 150_000 }).compactBoundary({ trigger: 'manual' }).toString());
    const text = context(await prompt(transcript));
    expect(text).toContain('Context unknown since compaction');
    expect(text).not.toMatch(/\b0%/);
  });

  it('the monitor can be turned off by env and by policy; then a prompt without an alert is silent', async () => {
    expect(await prompt(transcriptAt(20_000), { DEV_TEAM_CONTEXT_MONITOR: 'off' })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ monitor: false }));
    expect(await prompt(transcriptAt(20_000))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('after a checkpoint: the compaction alert once, acknowledged with a marker file; the checkpoint itself untouched', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact();
    const path = join(checkpointDir(), 'cx-001-checkpoint.json');
    const before = readFileSync(path, 'utf8');
    const first = context(await prompt(transcriptAt(3_000)))!;
    expect(first).toContain('<context-monitor>');
    expect(first).toContain('<compaction-alert>');
    expect(first).toContain(`CHECKPOINT: ${path}`);
    expect(first).toContain('YOU WERE DOING: Phase 2 (Core License Changes), qg-2-iteration-1');
    expect(first).toContain('4. Continue from: Apply the DA-001 fix, then re-score');
    expect(existsSync(join(checkpointDir(), 'cx-001-checkpoint.acknowledged'))).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(before);
    const second = context(await prompt(transcriptAt(3_000)))!;
    expect(second).toContain('<context-monitor>');
    expect(second).not.toContain('<compaction-alert>');
  });

  it('alerts only for this session’s checkpoints', async () => {
    await preCompact();
    expect(context(await prompt(transcriptAt(3_000), {}, 'another-session'))).not.toContain('<compaction-alert>');
  });

  it('a checkpoint with acknowledged: true in its JSON is never shown', async () => {
    sandbox.write(`project/.claude/context-ceiling/checkpoints/${SESSION}/cx-001-checkpoint.json`, JSON.stringify({ id: 'cx-001', sequence: 1, acknowledged: true }));
    expect(context(await prompt(transcriptAt(3_000), { DEV_TEAM_CONTEXT_MONITOR: 'off' }))).toBeUndefined();
  });

  it('the alert is still shown when the monitor is off', async () => {
    await preCompact();
    const text = context(await prompt(transcriptAt(3_000), { DEV_TEAM_CONTEXT_MONITOR: 'off' }))!;
    expect(text.startsWith('<compaction-alert>')).toBe(true);
  });
});

describe('SessionStart', () => {
  it('source "compact": the alert in the same turn, acknowledged, so the next prompt does not repeat it', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact();
    const run = await sessionStart('compact');
    expect(JSON.parse(run.stdout).hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(context(run)).toContain('<compaction-alert>');
    expect(context(await prompt(transcriptAt(3_000)))).not.toContain('<compaction-alert>');
  });

  it('source "compact" with nothing pending is silent', async () => {
    expect(await sessionStart('compact')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  // ("clear" shows the newest checkpoint every time: test/blackbox/compaction.test.ts)
  it.each(['startup', 'resume'])('source "%s": the resumption context from an earlier session’s checkpoint, once', async (source) => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact();
    const text = context(await sessionStart(source, 'new-session'))!;
    expect(text).toMatch(/^<resumption-context>\n/);
    expect(text).toContain('WORKFLOW: FEAT-015  PROJECT: PROJ-001');
    expect(text).toContain('NEXT ACTION: Apply the DA-001 fix, then re-score');
    expect(text.length / 4).toBeLessThanOrEqual(1000);
    expect(await sessionStart(source, 'third-session')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('a corrupt checkpoint yields a minimal generic alert, never a crash or a silent skip', async () => {
    sandbox.write(`project/.claude/context-ceiling/checkpoints/${SESSION}/cx-001-checkpoint.json`, '{"id": "cx-001", "sequ');
    const text = context(await sessionStart('compact'))!;
    expect(text).toContain('<compaction-alert>');
    expect(text).toContain('could not be read');
    const other = `project/.claude/context-ceiling/checkpoints/old-session/cx-001-checkpoint.json`;
    sandbox.write(other, '\u0000garbage');
    expect(context(await sessionStart('startup', 'new-session'))).toContain('its checkpoint could not be read');
  });
});

describe('a multi-compaction session', () => {
  it('each compaction alerts once, numbered "COMPACTION EVENT k of n"', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact('auto');
    const first = context(await sessionStart('compact'))!;
    expect(first).toContain('cx-001-checkpoint.json');
    expect(first).not.toContain('COMPACTION EVENT');
    expect(context(await prompt(transcriptAt(30_000)))).not.toContain('<compaction-alert>');

    await preCompact('manual');
    const second = context(await prompt(transcriptAt(4_000)))!; // no SessionStart this time: the prompt is the fallback channel
    expect(second).toContain('COMPACTION EVENT: 2 of 2 this session');
    expect(second).toContain('TRIGGER: manual');

    await preCompact('auto');
    await preCompact('auto'); // PreCompact firing twice for one compaction: the later one wins
    const third = context(await sessionStart('compact'))!;
    expect(third).toContain('COMPACTION EVENT: 4 of 4 this session');
    expect(third).toContain('cx-004-checkpoint.json');
    expect(readdirSync(checkpointDir()).filter((f) => f.endsWith('.acknowledged')).sort()).toEqual(['cx-001', 'cx-002', 'cx-003', 'cx-004'].map((id) => `${id}-checkpoint.acknowledged`));
    expect(context(await prompt(transcriptAt(4_000)))).not.toContain('<compaction-alert>');
  });

  it('SessionStart and UserPromptSubmit racing show an alert exactly once', async () => {
    await preCompact();
    const runs = await Promise.all([sessionStart('compact'), prompt(transcriptAt(3_000)), sessionStart('compact'), prompt(transcriptAt(3_000))]);
    expect(runs.filter((run) => context(run)?.includes('<compaction-alert>'))).toHaveLength(1);
  });
});

describe('PostToolUse on the orchestration file', () => {
  const written = (file: string, tool = 'Write') => hook('post-tool-use', { hook_event_name: 'PostToolUse', tool_name: tool, tool_input: { file_path: file, content: '...' }, tool_response: { success: true } });
  const orchestration = () => join(sandbox.project, 'ORCHESTRATION.yaml');

  it('a fresh resumption section is silent', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    expect(await written(orchestration())).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('a stale updated_at warns through additionalContext', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION.replace(/updated_at: .*/, `updated_at: ${new Date(Date.now() - 3 * 3600_000).toISOString()}`));
    const run = await written(orchestration(), 'Edit');
    expect(JSON.parse(run.stdout).hookSpecificOutput.hookEventName).toBe('PostToolUse');
    expect(context(run)).toMatch(/^context-ceiling: ORCHESTRATION\.yaml was just written but its resumption section was last updated 3 h 0 min ago/);
  });

  it('the staleness threshold is configurable', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION.replace(/updated_at: .*/, `updated_at: ${new Date(Date.now() - 3 * 3600_000).toISOString()}`));
    expect((await hook('post-tool-use', { tool_name: 'Write', tool_input: { file_path: orchestration() } }, { DEV_TEAM_CONTEXT_RESUMPTION_STALE_MINUTES: '600' })).stdout).toBe('');
  });

  it('a missing updated_at warns', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION.replace(/ {2}updated_at: .*\n/, ''));
    expect(context(await written(orchestration()))).toContain('resumption.updated_at is missing');
  });

  it('a relative file_path is resolved against cwd', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION.replace(/ {2}updated_at: .*\n/, ''));
    expect(context(await written('ORCHESTRATION.yaml'))).toContain('resumption.updated_at is missing');
  });

  it('malformed YAML after a write warns with the line', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', 'resumption:\n  next_step: [unclosed\n');
    expect(context(await written(orchestration()))).toMatch(/is not valid YAML \(line \d+, column \d+/);
  });

  it('YAML the parser only warns about prints nothing on stderr', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', 'resumption: !custom-tag x\n');
    const run = await written(orchestration());
    expect(run.stderr).toBe('');
    expect(context(run)).toContain('has no resumption: section');
  });

  it('other files are ignored', async () => {
    sandbox.write('project/README.md', '# x');
    expect(await written(join(sandbox.project, 'README.md'))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await written(join(sandbox.project, 'sub', 'ORCHESTRATION.yaml'))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});

describe('every hook fails open on bad input', () => {
  it.each(['user-prompt-submit', 'pre-compact', 'session-start', 'post-tool-use'])('%s', async (event) => {
    for (const stdin of ['', 'not json', '[]', 'null', '{"session_id": 5}']) {
      expect(await runHook(sandbox, stdin, {}, 'hook', event)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    }
  });
});

describe('checkpoints CLI', () => {
  const cli = (args: string[]) => runCli(sandbox, args, { CLAUDE_PROJECT_DIR: sandbox.project });
  const cliOk = (args: string[]) => runCliOk(sandbox, args, { CLAUDE_PROJECT_DIR: sandbox.project });

  it('list, show, ack, with --json', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    await preCompact('auto');
    await preCompact('manual');
    const list = JSON.parse((await cliOk(['checkpoints', 'list', '--json'])).stdout);
    expect(list.map((c: { id: string; acknowledged: boolean; trigger: string }) => [c.id, c.trigger, c.acknowledged])).toEqual([
      [`${SESSION}/cx-001`, 'auto', false],
      [`${SESSION}/cx-002`, 'manual', false],
    ]);
    const human = await cliOk(['checkpoints', 'list']);
    expect(human.stdout).toMatch(new RegExp(`^${SESSION}/cx-001\\s+\\S+\\s+auto\\s+90%\\s+EMERGENCY\\s+no$`, 'm'));
    const shown = await cliOk(['checkpoints', 'show', 'cx-002']);
    expect(shown.stdout).toContain('<compaction-alert>');
    expect(shown.stdout).toContain('COMPACTION EVENT: 2 of 2 this session');
    expect(JSON.parse((await cliOk(['checkpoints', 'show', 'cx-001', '--json'])).stdout)).toMatchObject({ id: 'cx-001', trigger: { type: 'auto' } });
    expect((await cliOk(['checkpoints', 'ack', 'cx-001'])).stdout).toBe(`${SESSION}/cx-001: acknowledged\n`);
    expect((await cliOk(['checkpoints', 'ack', '--all'])).stdout).toBe(`${SESSION}/cx-002: acknowledged\n`);
    expect((await cliOk(['checkpoints', 'ack', '--all'])).stdout).toBe('Nothing to acknowledge.\n');
    expect(context(await prompt(transcriptAt(3_000), { DEV_TEAM_CONTEXT_MONITOR: 'off' }))).toBeUndefined();
  });

  it('unknown and ambiguous ids are clear errors', async () => {
    expect(await cli(['checkpoints', 'show', 'cx-009'])).toMatchObject({ exitCode: 1, stderr: 'context-ceiling: no checkpoint cx-009 (this project has none)\n' });
    await preCompact();
    await hook('pre-compact', { session_id: 'other', transcript_path: transcriptAt(1_000), trigger: 'auto' });
    const run = await cli(['checkpoints', 'show', 'cx-001']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/cx-001 is ambiguous/);
    expect((await cliOk(['checkpoints', 'show', 'cx-001', '--session', 'other'])).exitCode).toBe(0);
    expect((await cli(['checkpoints', 'ack'])).exitCode).toBe(1);
  });

  it('no checkpoints', async () => {
    expect((await cliOk(['checkpoints', 'list'])).stdout).toBe('No checkpoints in this project.\n');
  });
});
