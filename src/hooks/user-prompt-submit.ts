/** UserPromptSubmit: the <context-monitor> status, and the compaction alert when one is pending (the fallback channel). */
import { resolveAutocompact } from '../core/autocompact.js';
import { renderMonitor } from '../core/templates.js';
import type { HookOutcome } from '../runtime/hook-io.js';
import { resolveRecoverySkill } from '../io/recovery-skill.js';
import { additionalContext, guarded } from '../runtime/additional-context.js';
import { basename } from 'node:path';
import { takeCompactionAlert } from '../checkpoints/alerts.js';
import { readContext } from '../window/reading.js';
import type { HookHost } from '../runtime/host.js';
import { openHook } from '../runtime/open-hook.js';

export function runUserPromptSubmit(stdin: string | undefined, host: HookHost): HookOutcome {
  const opened = openHook(stdin, host);
  if (!opened.open) return opened.outcome;
  const { input, config } = opened;
  const { policy } = config;
  const parts: string[] = [];
  if (policy.monitor) {
    const reading = readContext(config, input.transcript_path, input.session_id, host.now());
    parts.push(
      renderMonitor({
        ...reading,
        ceilingPct: policy.ceilingPct,
        // /compact when no recovery skill is installed: a skill that is not there is a dead end
        recoverySkill:
          resolveRecoverySkill({
            projectDir: config.projectDir,
            home: host.home,
            env: host.env,
            recoverySkills: policy.recoverySkills,
            runtimeDir: host.runtimeDir,
          }) ?? 'compact',
        orchestrationFile: basename(policy.orchestrationFile),
        autocompact: resolveAutocompact(host.env),
      }),
    );
  }
  const alert = guarded(() => takeCompactionAlert(config, input.session_id), config.debug);
  if (alert) parts.push(alert);
  const reason = [policy.monitor ? 'monitor' : undefined, alert ? 'compaction-alert' : undefined].filter(Boolean).join('+');
  return additionalContext('UserPromptSubmit', parts, reason, 'monitor-off');
}
