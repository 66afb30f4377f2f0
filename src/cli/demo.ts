/** `context-ceiling demo`: the real guard process on built-in sample transcripts; no Claude Code needed. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from '../io/join-path.js';
import { aTranscript } from '../samples/transcript-builder.js';
import { bundleDir } from '../io/bundle-dir.js';
import type { Command } from './command.js';
import { UsageError } from './errors.js';
import { parseFlags } from './flags.js';
import { toJsonOutput } from './output.js';
import { cliMessage } from './messages.js';

const usage = 'context-ceiling demo [--json]';

type Scenario = {
  title: string;
  /** The transcript, given the calling tool_use id. */
  transcript: (toolUseId: string) => string;
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
real PreToolUse guard on each, with nothing configured: the window comes
from the session's model (claude-opus-5-5, 1,000,000 tokens, unless a
scenario says otherwise), the ceiling is 40%, and strict mode is on only
where a scenario sets it. Shows what the model reads, what the person sees
and the log line.
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

/**
 * Each scenario's transcript ends with the turn that makes the call (its tool_use id is the input's), as
 * Claude Code writes it: the guard judges that turn at once, with no wait for a record still to come.
 */
function scenarios(): Scenario[] {
  const agent = { description: 'Explore the billing module', prompt: 'Map billing', subagent_type: 'Explore' };
  const strict = { DEV_TEAM_CONTEXT_STRICT: 'on' };
  const at = (tokens: number, tool: string, toolInput: Record<string, unknown>, model = DEFAULT_MODEL) => ({
    transcript: (id: string) =>
      aTranscript()
        .modelAttachment(model)
        .noise()
        .user('Refactor the billing module')
        .attachment(13_000)
        .assistant({
          cacheRead: tokens - 1_005,
          cacheCreation: 1_000,
          model,
          toolUse: { name: 'Read', input: { file_path: 'src/billing.ts' } },
        })
        .toolResult(4_000)
        .assistant({ cacheRead: tokens - 1_005, cacheCreation: 1_000, model, toolUse: { name: tool, input: toolInput, id } })
        .toString(),
    tool,
    toolInput,
  });
  const skill = (name: string) => ({ skill: name });
  return [
    {
      title: "30% of the default model's 1,000,000-token window: a Skill call passes silently",
      ...at(300_000, 'Skill', skill('deep-dive')),
    },
    { title: '45%: an Agent call over the 40% ceiling warns the model and the person', ...at(450_000, 'Agent', agent), session: 'warned' },
    { title: '45% again, same session: same 5-point band, so silent', ...at(450_000, 'Agent', agent), session: 'warned' },
    { title: '52% in the same session: a higher band warns again', ...at(520_000, 'Agent', agent), session: 'warned' },
    { title: '45%, strict mode (what CI sets): the Skill call is blocked', ...at(450_000, 'Skill', skill('deep-dive')), env: strict },
    {
      title: '90%, strict mode: a recovery skill is never gated',
      ...at(900_000, 'Skill', skill('dev-team:context-summarization')),
      env: strict,
    },
    {
      title: 'claude-haiku-4-5 at 50% of its own 200,000-token window, strict mode: blocked',
      ...at(100_000, 'Skill', skill('deep-dive'), 'claude-haiku-4-5'),
      env: strict,
    },
    {
      title: 'Newer sidechain (900K), progress (950K) and API-error records are decoys: 30% passes',
      transcript: (id: string) =>
        aTranscript()
          .user('go')
          .assistant({ cacheRead: 299_000, cacheCreation: 1_000, toolUse: { name: 'Agent', input: agent, id } })
          .sidechain({ cacheRead: 900_000 })
          .progress({ cacheRead: 950_000 })
          .apiError()
          .toString(),
      tool: 'Agent',
      toolInput: agent,
      env: strict,
    },
    {
      title: 'After an auto-compaction (postTokens 2,600), before the next turn: a strict Skill call passes',
      transcript: () =>
        aTranscript()
          .assistant({ cacheRead: 950_000 })
          .compactBoundary({ trigger: 'auto', preTokens: 950_005, postTokens: 2_600 })
          .user('continue')
          .toString(),
      tool: 'Skill',
      toolInput: skill('deep-dive'),
      env: strict,
    },
  ];
}

/** The model a session runs on when nothing is configured (Claude Code 2.1.331 and 2.1.332). */
const DEFAULT_MODEL = 'claude-opus-5-5';

function runScenario(root: string, scenario: Scenario, index: number): Run {
  const session = scenario.session ?? `demo-${index + 1}`;
  const project = join(root, 'project');
  mkdirSync(project, { recursive: true });
  installDemoSkill(root); // HOME is the demo root
  const transcript = join(root, `${session}-${index + 1}.jsonl`);
  const toolUseId = `toolu_demo_${index + 1}`;
  writeFileSync(transcript, scenario.transcript(toolUseId));
  const input = {
    session_id: session,
    transcript_path: transcript,
    cwd: project,
    hook_event_name: 'PreToolUse',
    tool_name: scenario.tool,
    tool_input: scenario.toolInput,
    tool_use_id: toolUseId,
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

/**
 * The demo's person has the recovery skill installed, as after `install --user`, so messages name it (a copy in
 * the project would be the project's own skill under our name, which messages never name: recovery-skill.ts).
 */
function installDemoSkill(home: string): void {
  const dir = join(home, '.claude', 'skills', 'context-summarization');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), '---\nname: context-summarization\ndescription: demo copy\n---\n');
}

function outcomeWord(run: Run): string {
  if (run.exitCode !== 0) return cliMessage('demo.exit', { code: run.exitCode });
  if (isDenied(run)) return cliMessage('demo.block');
  return cliMessage(run.stdout || run.stderr ? 'demo.warn' : 'demo.allow');
}

function isDenied(run: Run): boolean {
  return parseOutput(run.stdout)?.hookSpecificOutput?.permissionDecision === 'deny';
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
    const output = parseOutput(run.stdout)?.hookSpecificOutput;
    const system = parseOutput(run.stdout)?.systemMessage;
    if (output?.permissionDecisionReason) lines.push(...wrap('model reads (call denied)', output.permissionDecisionReason));
    if (output?.additionalContext) lines.push(...wrap('model is told', output.additionalContext));
    if (system) lines.push(...wrap('user sees', system));
    if (run.stderr) lines.push(...wrap('log line (stderr)', run.stderr.trim()));
    lines.push('');
  });
  return `${lines.join('\n')}`;
}

type GuardJson = {
  systemMessage?: string;
  hookSpecificOutput?: { additionalContext?: string; permissionDecision?: string; permissionDecisionReason?: string };
};

function parseOutput(stdout: string): GuardJson | undefined {
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
