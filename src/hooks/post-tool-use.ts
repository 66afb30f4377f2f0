/** PostToolUse on Write/Edit: after the orchestration file is written, warn when its resumption section is stale. */
import { basename, isAbsolute, resolve } from 'node:path';
import { matcherTools, WRITE_MATCHER } from '../core/hook-table.js';
import { stringField, type SessionInput } from '../core/hook-input.js';
import { judgeWrittenOrchestration, renderStaleness } from '../core/staleness.js';
import { silent, type HookOutcome } from '../runtime/hook-io.js';
import { orchestrationPath, readOrchestration } from '../io/orchestration.js';
import type { HookHost } from '../runtime/host.js';
import { openHook } from '../runtime/open-hook.js';
import { additionalContext } from '../runtime/additional-context.js';

/** The tools its matcher names (core/hook-table.ts): the handler judges exactly what Claude Code sends it. */
const WRITING_TOOLS = new Set(matcherTools(WRITE_MATCHER));

export function runPostToolUse(stdin: string | undefined, host: HookHost): HookOutcome {
  // Other tools' calls are turned away before any file is read.
  const opened = openHook(stdin, host, (input) => (writtenFile(input) === undefined ? 'not-a-file-write' : undefined));
  if (!opened.open) return opened.outcome;
  const { input, config } = opened;
  const written = writtenFile(input);
  if (written === undefined) return silent('not-a-file-write');
  const { policy, projectDir } = config;
  const target = orchestrationPath(projectDir, policy.orchestrationFile);
  const path = isAbsolute(written) ? resolve(written) : resolve(input.cwd ?? projectDir, written);
  if (path !== target) return silent('not-the-orchestration-file');
  const facts = judgeWrittenOrchestration(readOrchestration(target, host.parseYaml, projectDir), host.now(), policy.resumptionStaleMinutes);
  const text = facts && renderStaleness(facts, basename(target));
  return text ? additionalContext('PostToolUse', [text], 'stale-resumption') : silent(facts ? 'resumption-fresh' : 'no-resumption-section');
}

/** The file a writing tool (its matcher's) wrote, or undefined for any other call. */
function writtenFile(input: SessionInput): string | undefined {
  const tool = stringField(input.raw, 'tool_name', 256);
  const toolInput = input.raw.tool_input;
  if (!tool || !WRITING_TOOLS.has(tool) || typeof toolInput !== 'object' || toolInput === null) return undefined;
  return stringField(toolInput as Record<string, unknown>, 'file_path');
}
