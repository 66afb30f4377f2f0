/**
 * One end-to-end world: a git-initialised temp project with a temp HOME, the
 * product's hooks installed by its own `install` command, a fake Messages API,
 * and the real Claude Code CLI (the pinned client, installed by the e2e globalSetup) run in print mode.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterEach, expect, inject } from 'vitest';
import { HOOK_NAMES } from '../../src/core/hook-table.js';
import { CLI_BIN } from '../helpers/sandbox.js';
import { NODE_RUNS_LOG_ENV } from './client-setup.js';
import { FakeAnthropic, type Script, type Turn } from './fake-api.js';

/** The real client under test (client-setup.ts installs it; CLAUDE_CODE_VERSION chooses another). */
export const CLAUDE_BIN = inject('claudeBin');

export type ClaudeResult = {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The run's result object (with `stream`, its final `result` event). */
  json: Record<string, unknown> | undefined;
  sessionId: string | undefined;
  /** With `stream`: every event the person's client is given (`--output-format stream-json --verbose`), in order. */
  events: Array<Record<string, unknown>>;
};

export type ClaudeOptions = {
  resume?: string;
  env?: Record<string, string>;
  args?: string[];
  /** `--model <id>` (the fake API echoes it, so the transcript's `message.model` is this id without a `[1m]`). */
  model?: string;
  /** `--output-format stream-json --verbose`: what a person sees of hooks in print mode (a systemMessage is a `system/informational` event). */
  stream?: boolean;
  /**
   * With `stream`: also every hook's own output (`--include-hook-events`), and the product's debug channel on
   * (DEV_TEAM_CONTEXT_DEBUG=1, stderr, which the model never sees), so `verdicts()` can say what each hook decided.
   */
  verdicts?: boolean;
};

/**
 * What each of our hooks decided in a `verdicts` run, from its debug line (`context-ceiling debug: verdict <event>: <reason>`):
 * e.g. `pre-tool-use: allow below-ceiling`. A hook that never ran leaves none, so a silent allow is told from a dead hook.
 */
export function verdicts(run: ClaudeResult): string[] {
  return run.events
    .filter((e) => e.type === 'system' && e.subtype === 'hook_response')
    .flatMap((e) => [...String(e.stderr ?? '').matchAll(/^context-ceiling debug: verdict (.+)$/gm)].map((m) => m[1]!));
}

/** The person's notices in a streamed run: each hook systemMessage, as the client shows it (`PreToolUse:Skill says: …`). */
export function notices(run: ClaudeResult): string[] {
  return run.events.filter((e) => e.type === 'system' && e.subtype === 'informational').map((e) => String(e.content));
}

/** Worlds not yet stopped: a failing test must not leave its fake API listening or its temp tree behind. */
const live = new Set<World>();

/** Stops, after each test, every World it made: call once at the top of a test file. */
export function stopWorldsAfterEach(): void {
  afterEach(async () => {
    const worlds = [...live];
    live.clear();
    for (const world of worlds) await world.stop();
  });
}

export class World {
  readonly root = mkdtempSync(join(tmpdir(), 'cc-e2e-'));
  readonly home = join(this.root, 'home');
  readonly project = join(this.root, 'project');
  readonly tmp = join(this.root, 'tmp');
  /** Where the e2e `node` notes its runs (nodeRuns). */
  readonly nodeRunsLog = join(this.root, 'node-runs.log');
  readonly api: FakeAnthropic;
  private url = '';
  private queue: Turn[] = [];
  private lastUsage = 5_000;

  /** Without a script, the model answers from the queue `reply()` fills, then with plain text at the last usage. */
  constructor(
    script?: Script,
    private readonly env: Record<string, string> = {},
  ) {
    this.api = new FakeAnthropic(script ?? (() => this.nextTurn()));
    for (const dir of [this.home, this.project, this.tmp]) mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: this.project });
    live.add(this);
  }

  /** Start the fake API and run `install` with these flags; `null` installs nothing (the plugin route). */
  async start(installArgs: string[] | null = []): Promise<void> {
    this.url = await this.api.start();
    if (installArgs === null) return;
    const install = await execa(process.execPath, [CLI_BIN, 'install', ...installArgs], {
      cwd: this.project,
      env: this.baseEnv(),
      extendEnv: false,
      reject: false,
    });
    if (install.exitCode !== 0) throw new Error(`install failed: ${install.stderr}`);
  }

  get apiUrl(): string {
    return this.url;
  }

  /** The next model turns, in order. */
  reply(...turns: Turn[]): void {
    this.queue.push(...turns);
  }

  private nextTurn(): Turn {
    const turn = this.queue.shift() ?? { text: 'ok', cacheRead: this.lastUsage };
    this.lastUsage = turn.cacheRead ?? this.lastUsage;
    return turn;
  }

  async stop(): Promise<void> {
    live.delete(this);
    await this.api.stop();
    rmSync(this.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); // an exiting client may still be writing
  }

  /** A real skill, so the Skill tool's own validation passes and PreToolUse fires. */
  skill(name: string, body = `You are running the ${name} skill. Reply with one line.`): void {
    this.write(
      `project/.claude/skills/${name}/SKILL.md`,
      `---\nname: ${name}\ndescription: ${name} for the end-to-end test\n---\n\n${body}\n`,
    );
  }

  write(relative: string, content: string): string {
    const path = join(this.root, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    return path;
  }

  /** `claude -p <prompt>` in the project, against the fake API. */
  async claude(prompt: string, options: ClaudeOptions = {}): Promise<ClaudeResult> {
    const format = options.stream ? ['stream-json', '--verbose', ...(options.verdicts ? ['--include-hook-events'] : [])] : ['json'];
    const args = [
      '-p',
      prompt,
      '--output-format',
      ...format,
      '--allowedTools',
      'Skill Agent Workflow Read Write Edit',
      ...(options.args ?? []),
    ];
    if (options.model) args.push('--model', options.model);
    if (options.resume) args.push('--resume', options.resume);
    const run = await execa(CLAUDE_BIN, args, {
      cwd: this.project,
      env: { ...this.baseEnv(), ...(options.verdicts ? { DEV_TEAM_CONTEXT_DEBUG: '1' } : {}), ...options.env },
      extendEnv: false,
      reject: false,
      timeout: 90_000,
      forceKillAfterDelay: 2_000,
      cleanup: true,
      stdin: 'ignore',
    });
    const events = options.stream ? parseLines(String(run.stdout)) : [];
    const json = options.stream ? events.filter((e) => e.type === 'result').at(-1) : parseJson(String(run.stdout));
    return {
      exitCode: run.exitCode ?? -1,
      stdout: String(run.stdout),
      stderr: String(run.stderr),
      json,
      sessionId: typeof json?.session_id === 'string' ? json.session_id : undefined,
      events,
    };
  }

  /** A first run whose only turn reports `tokens` of occupancy (the fake API adds 5 input tokens); returns the session id. */
  async sessionAt(tokens: number, env: Record<string, string> = {}, options: Pick<ClaudeOptions, 'args' | 'model'> = {}): Promise<string> {
    this.reply({ cacheRead: tokens - 5, text: 'ready' });
    const run = await this.claude('get ready', { env, ...options });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.sessionId).toBeDefined();
    return run.sessionId!;
  }

  /** `/compact [instructions]` on the session, which must end compacted; returns its checkpoints. */
  async compact(session: string, instructions?: string): Promise<ReturnType<World['checkpoints']>> {
    const run = await this.claude(instructions ? `/compact ${instructions}` : '/compact', { resume: session });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(this.compacted(session)).toBe(true);
    return this.checkpoints(session);
  }

  /** The session's transcript file. */
  transcript(sessionId: string): string {
    const folder = join(this.home, '.claude', 'projects', this.project.replace(/[^a-zA-Z0-9]/g, '-'));
    return join(folder, `${sessionId}.jsonl`);
  }

  /** Claude Code wrote a compact_boundary into the session's transcript. */
  compacted(sessionId: string): boolean {
    return (
      existsSync(this.transcript(sessionId)) && readFileSync(this.transcript(sessionId), 'utf8').includes('"subtype":"compact_boundary"')
    );
  }

  checkpoints(sessionId: string): Array<{ name: string; json: Record<string, unknown> }> {
    const dir = join(this.project, '.claude', 'context-ceiling', 'checkpoints', sessionId);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => name.endsWith('-checkpoint.json'))
      .sort()
      .map((name) => ({ name, json: JSON.parse(readFileSync(join(dir, name), 'utf8')) }));
  }

  /** Acknowledged checkpoints (not the markers of kept summaries' notices). */
  acknowledged(sessionId: string): string[] {
    const dir = join(this.project, '.claude', 'context-ceiling', 'checkpoints', sessionId);
    return existsSync(dir)
      ? readdirSync(dir)
          .filter((name) => name.endsWith('-checkpoint.acknowledged'))
          .sort()
      : [];
  }

  /**
   * What the client and its hooks ran with the `node` on its PATH (the current LTS Node, client-setup.ts), one
   * `<args>` line a run: `…/hook.cjs <event>`, `…/statusline.cjs`.
   */
  nodeRuns(): string[] {
    return existsSync(this.nodeRunsLog) ? readFileSync(this.nodeRunsLog, 'utf8').split('\n').filter(Boolean) : [];
  }

  /**
   * What the `node` on the client's PATH ran of ours: each hook's event (`hook.cjs <event>`) and `statusline`.
   * In a Bun run (CC_HOOK_RUNTIME=bun) the hook command runs Bun, so nothing (the recovery skill's own command
   * names `node`: it is no hook).
   */
  ranByNode(): Set<string> {
    const ran = this.nodeRuns().map((line) => (line.endsWith('/statusline.cjs') ? 'statusline' : line.split(' ').at(-1)!));
    return new Set(ran.filter((name) => name === 'statusline' || (HOOK_NAMES as readonly string[]).includes(name)));
  }

  /** The private state directory the hooks use with nothing configured (XDG state under the World's HOME). */
  get stateDir(): string {
    return join(this.home, '.local', 'state', 'context-ceiling');
  }

  private baseEnv(): Record<string, string> {
    return {
      PATH: hookNodeFirst(`${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`),
      HOME: this.home,
      TMPDIR: this.tmp,
      ANTHROPIC_BASE_URL: this.url,
      ANTHROPIC_API_KEY: 'sk-ant-e2e-test',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      NO_COLOR: '1',
      [NODE_RUNS_LOG_ENV]: this.nodeRunsLog,
      ...this.env,
    };
  }
}

/**
 * These ran with the current LTS Node the client's PATH finds first (client-setup.ts), as on a machine where Node
 * was installed today; in the Bun run, with Bun (test/e2e/bun-runtime.test.ts checks its log), so none with Node.
 */
export function expectRunBy(w: World, ours: string[]): void {
  if (process.env.CC_HOOK_RUNTIME === 'bun') expect(w.ranByNode()).toEqual(new Set());
  else expect([...w.ranByNode()]).toEqual(expect.arrayContaining(ours));
}

/** The client's PATH: CC_HOOK_NODE_DIR (path-setup.ts: the current LTS Node) first, a folder whose `node` runs the hooks instead of the tests' own. */
export function hookNodeFirst(path: string): string {
  return process.env.CC_HOOK_NODE_DIR ? `${process.env.CC_HOOK_NODE_DIR}:${path}` : path;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Each line of `text` that is a JSON object (one for `--output-format json`, one per event for stream-json). */
function parseLines(text: string): Array<Record<string, unknown>> {
  const parsed: Array<Record<string, unknown>> = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = parseJson(line);
    if (event) parsed.push(event);
  }
  return parsed;
}
