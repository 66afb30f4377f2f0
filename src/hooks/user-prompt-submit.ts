/** UserPromptSubmit: the <context-monitor> status, and the compaction alert when one is pending (the fallback channel). */
import { resolveAutocompact } from '../core/autocompact.js';
import { parseSessionInput } from '../core/hook-input.js';
import { renderMonitor } from '../core/templates.js';
import { silent, type HookOutcome } from '../io/hook-io.js';
import { resolveRecoverySkill } from '../io/recovery-skill.js';
import { additionalContext, guarded } from './output.js';
import { basename } from 'node:path';
import { takeCompactionAlert } from './alerts.js';
import { loadSettings, parseJson, readContext, type HookContext } from './context.js';

export function runUserPromptSubmit(stdin: string | undefined, ctx: HookContext): HookOutcome {
  const input = parseSessionInput(parseJson(stdin));
  if (!input) return silent('not-a-hook-input');
  const settings = loadSettings(ctx, input.cwd);
  const { policy } = settings;
  if (!policy.enabled) return silent('disabled');
  const parts: string[] = [];
  if (policy.monitor) {
    const reading = readContext(settings, input.transcript_path, input.session_id, ctx.now());
    parts.push(
      renderMonitor({
        ...reading,
        ceilingPct: policy.ceilingPct,
        // /compact when no recovery skill is installed: a skill that is not there is a dead end
        recoverySkill:
          resolveRecoverySkill({
            projectDir: settings.projectDir,
            home: ctx.home,
            env: ctx.env,
            recoverySkills: policy.recoverySkills,
            runtimeDir: ctx.runtimeDir,
          }) ?? 'compact',
        orchestrationFile: basename(policy.orchestrationFile),
        autocompact: resolveAutocompact(ctx.env),
      }),
    );
  }
  const alert = guarded(() => takeCompactionAlert(settings, input.session_id), settings.debug);
  if (alert) parts.push(alert);
  const reason = [policy.monitor ? 'monitor' : undefined, alert ? 'compaction-alert' : undefined].filter(Boolean).join('+');
  return additionalContext('UserPromptSubmit', parts, reason, 'monitor-off');
}
