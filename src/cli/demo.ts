/** `context-ceiling demo`: the real guard process on built-in sample transcripts; no Claude Code needed. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aTranscript } from '../samples/transcript-builder.js';
import { bundleDir } from './bundle-dir.js';
import { parseFlags, UsageError, type Command, toJsonOutput } from './io.js';
import { cliMessage } from './messages.js';

const usage = 'context-ceiling demo [--json]';

type Scenario = {
  title: string;
  transcript: string;
  tool: string;
  toolInput: Record<string, unknown>;
  env?: Record<string, string>;
  session?: string;
  agentId?: string;
};

type Run = { scenario: Scenario; exitCode: number | null; stdout: string; stderr: string };

export const demoCommand: Command = {
  usage,
  help: `Usage: ${usage}

Writes a few sample transcripts (the record layout of Claude Code 2.1.x,
with sidechain and progress decoys) to a temporary directory and runs the
real PreToolUse guard on each, with built-in defaults (window 200,000,
ceiling 40%) unless a scenario says otherwise. Shows the exit code, the
stderr line, what the model is told and what the user sees.
`,
  run(args, io) {
    const flags = parseFlags(args, { boolean: ['json'] }, usage);
    if (flags._.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: String(flags._[0]) }), usage);
    const root = mkdtempSync(join(tmpdir(), 'context-ceiling-demo-'));
    try {
      const runs = scenarios().map((scenario, index) => runScenario(root, scenario, index));
      io.out(flags.json ? toJsonOutput(runs.map(toJson)) : renderRuns(runs));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    return 0;
  },
};

function scenarios(): Scenario[] {
  const turns = (cacheRead: number) =>
    aTranscript()
      .noise()
      .user('Refactor the billing module')
      .attachment(13_000)
      .assistant({ cacheRead, cacheCreation: 1_000, toolUse: { name: 'Read', input: { file_path: 'src/billing.ts' } } })
      .toolResult(4_000)
      .noise();
  const at30 = turns(59_000).toString();
  const at50 = turns(99_000).toString();
  const at56 = turns(111_000).toString();
  const at90 = turns(179_000).toString();
  const decoys = aTranscript()
    .user('go')
    .assistant({ cacheRead: 59_000, cacheCreation: 1_000 })
    .sidechain({ cacheRead: 150_000 })
    .progress({ cacheRead: 170_000 })
    .apiError()
    .toString();
  const compacted = aTranscript()
    .assistant({ cacheRead: 179_000 })
    .compactBoundary({ trigger: 'auto', preTokens: 180_005, postTokens: 2_600 })
    .user('continue')
    .toString();
  const skill = (skill: string) => ({ skill });
  const agent = { description: 'Explore the billing module', prompt: 'Map billing', subagent_type: 'Explore' };
  return [
    { title: '30% full: a Skill call passes silently', transcript: at30, tool: 'Skill', toolInput: skill('deep-dive') },
    { title: '50% full: an Agent call over the 40% ceiling warns', transcript: at50, tool: 'Agent', toolInput: agent, session: 'warned' },
    {
      title: '50% again, same session: same 5-point band, so silent',
      transcript: at50,
      tool: 'Agent',
      toolInput: agent,
      session: 'warned',
    },
    { title: '56% in the same session: a higher band warns again', transcript: at56, tool: 'Agent', toolInput: agent, session: 'warned' },
    {
      title: '90% of a stated 200K window, strict mode: a Skill call is blocked',
      transcript: at90,
      tool: 'Skill',
      toolInput: skill('deep-dive'),
      env: { DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '200000' },
    },
    {
      title: 'The same with no window stated: the 200K default is only assumed, so strict mode warns instead',
      transcript: at90,
      tool: 'Skill',
      toolInput: skill('deep-dive'),
      env: { DEV_TEAM_CONTEXT_STRICT: 'on' },
    },
    {
      title: '90% full, strict mode: a recovery skill is never gated',
      transcript: at90,
      tool: 'Skill',
      toolInput: skill('dev-team:context-summarization'),
      env: { DEV_TEAM_CONTEXT_STRICT: 'on' },
    },
    {
      title: '90% of 200K is 18% of a 1M window: DEV_TEAM_CONTEXT_WINDOW=1000000 passes',
      transcript: at90,
      tool: 'Skill',
      toolInput: skill('deep-dive'),
      env: { DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '1000000' },
    },
    {
      title: 'Newer sidechain (150K), progress (170K) and API-error records are decoys: 30% passes',
      transcript: decoys,
      tool: 'Agent',
      toolInput: agent,
      env: { DEV_TEAM_CONTEXT_STRICT: 'on' },
    },
    {
      title: 'After an auto-compaction (postTokens 2,600): strict Skill call passes',
      transcript: compacted,
      tool: 'Skill',
      toolInput: skill('deep-dive'),
      env: { DEV_TEAM_CONTEXT_STRICT: 'on' },
    },
  ];
}

function runScenario(root: string, scenario: Scenario, index: number): Run {
  const session = scenario.session ?? `demo-${index + 1}`;
  const project = join(root, 'project');
  mkdirSync(project, { recursive: true });
  installDemoSkill(project);
  const transcript = join(root, `${session}-${index + 1}.jsonl`);
  writeFileSync(transcript, scenario.transcript);
  const input = {
    session_id: session,
    transcript_path: transcript,
    cwd: project,
    hook_event_name: 'PreToolUse',
    tool_name: scenario.tool,
    tool_input: scenario.toolInput,
    tool_use_id: `toolu_demo_${index + 1}`,
  };
  const hook = join(bundleDir(), 'hook.cjs');
  const result = spawnSync(process.execPath, [hook, 'pre-tool-use'], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: root,
      CLAUDE_PROJECT_DIR: project,
      DEV_TEAM_CONTEXT_STATE_DIR: join(root, 'state'),
      ...scenario.env,
    },
  });
  return { scenario, exitCode: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The demo project has the recovery skill installed, as after `install`, so messages name it. */
function installDemoSkill(project: string): void {
  const dir = join(project, '.claude', 'skills', 'context-summarization');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), '---\nname: context-summarization\ndescription: demo copy\n---\n');
}

function outcomeWord(run: Run): string {
  if (run.exitCode === 2) return cliMessage('demo.block');
  if (run.exitCode !== 0) return cliMessage('demo.exit', { code: run.exitCode });
  return cliMessage(run.stdout || run.stderr ? 'demo.warn' : 'demo.allow');
}

function renderRuns(runs: Run[]): string {
  const lines = [cliMessage('demo.heading'), cliMessage('demo.defaults'), ''];
  runs.forEach((run, index) => {
    const env = Object.entries(run.scenario.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    lines.push(`${index + 1}. ${run.scenario.title}`);
    lines.push(
      `   ${run.scenario.tool} ${JSON.stringify(run.scenario.toolInput.skill ?? run.scenario.toolInput.subagent_type)}${env ? `  [${env}]` : ''}  →  ${outcomeWord(run)}`,
    );
    const output = parseOutput(run.stdout);
    if (run.stderr) lines.push(...wrap(run.exitCode === 2 ? 'model gets the tool error' : 'stderr', run.stderr.trim()));
    if (output?.hookSpecificOutput?.additionalContext) lines.push(...wrap('model is told', output.hookSpecificOutput.additionalContext));
    if (output?.systemMessage) lines.push(...wrap('user sees', output.systemMessage));
    lines.push('');
  });
  return `${lines.join('\n')}`;
}

function parseOutput(stdout: string): { systemMessage?: string; hookSpecificOutput?: { additionalContext?: string } } | undefined {
  try {
    return stdout ? JSON.parse(stdout) : undefined;
  } catch {
    return undefined;
  }
}

function wrap(label: string, text: string, width = 100): string[] {
  const indent = ' '.repeat(30);
  const words = text.split(/\s+/);
  const out: string[] = [];
  let line = `   ${label}:`.padEnd(30);
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + word.length + 1 > width) {
      out.push(line);
      line = indent;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  out.push(line);
  return out;
}

function toJson(run: Run) {
  return {
    title: run.scenario.title,
    tool: run.scenario.tool,
    toolInput: run.scenario.toolInput,
    env: run.scenario.env ?? {},
    exitCode: run.exitCode,
    stdout: parseOutput(run.stdout) ?? null,
    stderr: run.stderr,
  };
}
