/** PostToolUse on Write/Edit: after the orchestration file is written, warn when its resumption section is stale. */
import { basename, isAbsolute, resolve } from 'node:path';
import { matcherTools, WRITE_MATCHER } from '../core/hook-table.js';
import { parseSessionInput, stringField } from '../core/hook-input.js';
import { judgeWrittenOrchestration, renderStaleness } from '../core/staleness.js';
import { silent, type HookOutcome } from '../runtime/hook-io.js';
import { orchestrationPath, readOrchestration } from '../io/orchestration.js';
import { loadHookConfig } from '../runtime/hook-config.js';
import { parseJson } from '../runtime/hook-io.js';
import type { HookHost } from '../runtime/host.js';
import { additionalContext } from '../runtime/output.js';

/** The tools its matcher names (core/hook-table.ts): the handler judges exactly what Claude Code sends it. */
const WRITING_TOOLS = new Set(matcherTools(WRITE_MATCHER));

export function runPostToolUse(stdin: string | undefined, host: HookHost): HookOutcome {
  const input = parseSessionInput(parseJson(stdin));
  if (!input) return silent('not-a-hook-input');
  const tool = stringField(input.raw, 'tool_name', 256);
  const toolInput = input.raw.tool_input;
  const written =
    typeof toolInput === 'object' && toolInput !== null ? stringField(toolInput as Record<string, unknown>, 'file_path') : undefined;
  if (!tool || !WRITING_TOOLS.has(tool) || !written) return silent('not-a-file-write');
  const config = loadHookConfig(host, input.cwd);
  const { policy, projectDir } = config;
  if (!policy.enabled) return silent('disabled');
  const target = orchestrationPath(projectDir, policy.orchestrationFile);
  const path = isAbsolute(written) ? resolve(written) : resolve(input.cwd ?? projectDir, written);
  if (path !== target) return silent('not-the-orchestration-file');
  const facts = judgeWrittenOrchestration(readOrchestration(target, host.parseYaml, projectDir), host.now(), policy.resumptionStaleMinutes);
  const text = facts && renderStaleness(facts, basename(target));
  return text ? additionalContext('PostToolUse', [text], 'stale-resumption') : silent(facts ? 'resumption-fresh' : 'no-resumption-section');
}
