/**
 * The real client in interactive mode, in a detached tmux session: for what only
 * it shows (the status line) and for attended flows (a person typing /compact).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_RUNS_LOG_ENV } from './client-setup.js';
import { CLAUDE_BIN, hookNodeFirst, type World } from './world.js';

const POLL_MS = 250;
const POLLS = 160;
let opened = 0;

export class Terminal {
  private constructor(private readonly name: string) {}
  private pid = 0;

  /** `claude <args>` in the world's project, on a 160×40 pane, against the world's fake API (start the world first). */
  static open(world: World, args: string[] = [], env: Record<string, string> = {}): Terminal {
    // Interactive mode against the fake API needs onboarding marked done and the project trusted (CLAUDE-CODE-FACTS.md).
    writeFileSync(
      join(world.home, '.claude.json'),
      JSON.stringify({
        hasCompletedOnboarding: true,
        customApiKeyResponses: { approved: ['sk-ant-e2e-test'.slice(-20)], rejected: [] },
        projects: { [world.project]: { hasTrustDialogAccepted: true } },
      }),
    );
    const terminal = new Terminal(`cc-e2e-${process.pid}-${++opened}`);
    const full = {
      HOME: world.home,
      TMPDIR: world.tmp,
      ANTHROPIC_BASE_URL: world.apiUrl,
      ANTHROPIC_API_KEY: 'sk-ant-e2e-test',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      PATH: hookNodeFirst(process.env.PATH ?? ''),
      [NODE_RUNS_LOG_ENV]: world.nodeRunsLog,
      ...env,
    };
    execFileSync('tmux', [
      'new-session',
      '-d',
      '-s',
      terminal.name,
      '-x',
      '160',
      '-y',
      '40',
      '-c',
      world.project,
      'env',
      ...Object.entries(full).map(([k, v]) => `${k}=${v}`),
      CLAUDE_BIN,
      ...args,
    ]);
    // `env` execs the client, so the pane's process is the client itself.
    terminal.pid = Number(execFileSync('tmux', ['display-message', '-p', '-t', terminal.name, '#{pane_pid}']).toString());
    if (!(terminal.pid > 0)) throw new Error(`tmux gave no pane pid for ${terminal.name}`);
    return terminal;
  }

  /** The text on the pane now. */
  pane(): string {
    return execFileSync('tmux', ['capture-pane', '-p', '-t', this.name]).toString();
  }

  /** Until the pane shows `what` (or the check holds); after 40 s, fails with the pane's text. */
  async waitFor(what: RegExp | (() => boolean), label = String(what)): Promise<void> {
    const holds = typeof what === 'function' ? what : () => what.test(this.pane());
    for (let i = 0; i < POLLS; i++) {
      if (holds()) return;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`never: ${label}\n${this.pane()}`);
  }

  /** Types a line as a person would, then Enter. */
  type(text: string): void {
    execFileSync('tmux', ['send-keys', '-t', this.name, '-l', text]);
    execFileSync('tmux', ['send-keys', '-t', this.name, 'Enter']);
  }

  /** Kills the session and waits until the client has exited: until then it may still write its session (to be resumed or removed next). */
  async close(): Promise<void> {
    execFileSync('tmux', ['kill-session', '-t', this.name]);
    for (let i = 0; i < POLLS && this.running(); i++) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }

  private running(): boolean {
    try {
      process.kill(this.pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}
