/** UserPromptSubmit: the <context-monitor> status, and the compaction alert when one is pending (the fallback channel). */
import { parseSessionInput } from '../core/hook-input.js';
import { renderMonitor } from '../core/templates.js';
import { SILENT, type HookOutcome } from '../io/hook-io.js';
import { basename } from 'node:path';
import { takeCompactionAlert } from './alerts.js';
import { autocompactPct, loadSettings, parseJson, readContext, type HookContext } from './context.js';

export function runUserPromptSubmit(stdin: string | undefined, ctx: HookContext): HookOutcome {
  const input = parseSessionInput(parseJson(stdin));
  if (!input) return SILENT;
  const settings = loadSettings(ctx, input.cwd);
  const { policy } = settings;
  if (!policy.enabled) return SILENT;
  const parts: string[] = [];
  if (policy.monitor) {
    const reading = readContext(settings, input.transcript_path, input.session_id, ctx.now());
    parts.push(
      renderMonitor({
        ...reading,
        ceilingPct: policy.ceilingPct,
        recoverySkill: policy.recoverySkills[0] ?? 'context-summarization',
        orchestrationFile: basename(policy.orchestrationFile),
        autocompactPct: autocompactPct(ctx.env),
      }),
    );
  }
  const alert = guarded(() => takeCompactionAlert(settings, input.session_id), settings.debug);
  if (alert) parts.push(alert);
  return additionalContext('UserPromptSubmit', parts);
}

/** Run one optional part of a hook; its failure drops that part, never the others. */
export function guarded<T>(part: () => T, debug: (message: string) => void): T | undefined {
  try {
    return part();
  } catch (error) {
    debug(`skipped: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

export function additionalContext(hookEventName: string, parts: string[]): HookOutcome {
  if (parts.length === 0) return SILENT;
  return { exitCode: 0, stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: parts.join('\n\n') } })}\n`, stderr: '' };
}
