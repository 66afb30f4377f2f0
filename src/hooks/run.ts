/** Runs one hook event end to end and never throws: any failure is exit 0 with no output. */
import { homedir } from 'node:os';
import { readStdin, SILENT, writeAll, type HookOutcome } from '../io/hook-io.js';
import type { PolicyParser } from '../io/config.js';
import type { HookContext } from './context.js';
import { runPreToolUse } from './pre-tool-use.js';

const HANDLERS: Record<string, (stdin: string | undefined, ctx: HookContext) => HookOutcome> = {
  'pre-tool-use': runPreToolUse,
};

export const HOOK_EVENTS = Object.keys(HANDLERS);

export function runHookEvent(event: string | undefined, ctx: HookContext, stdin: () => string | undefined = readStdin): HookOutcome {
  try {
    const handler = event === undefined ? undefined : HANDLERS[event];
    if (!handler) return SILENT;
    return handler(stdin(), ctx);
  } catch (error) {
    if (ctx.env.DEV_TEAM_CONTEXT_DEBUG) ctx.writeStderr(`context-ceiling debug: unexpected ${error instanceof Error ? error.message : String(error)}\n`);
    return SILENT;
  }
}

export function processHookContext(parsePolicy: PolicyParser): HookContext {
  return {
    parsePolicy,
    env: process.env,
    cwd: process.cwd(),
    home: safeHome(),
    writeStderr: (text) => writeAll(2, text),
  };
}

/** Write the outcome and set the exit code; the only place a hook touches stdout/stderr. */
export function emitOutcome(outcome: HookOutcome): void {
  if (outcome.stdout) writeAll(1, outcome.stdout);
  if (outcome.stderr) writeAll(2, outcome.stderr);
  process.exitCode = outcome.exitCode;
}

function safeHome(): string {
  try {
    return homedir();
  } catch {
    return process.env.HOME ?? '/';
  }
}
