/** UserPromptSubmit: the <context-monitor> status, and the compaction alert when one is pending (the fallback channel). */
import { resolveAutocompact } from '../core/autocompact.js';
import { parseSessionInput } from '../core/hook-input.js';
import { renderMonitor } from '../core/templates.js';
import { silent, type HookOutcome } from '../runtime/hook-io.js';
import { resolveRecoverySkill } from '../io/recovery-skill.js';
import { operatorRecoverySkills } from '../core/policy-layer.js';
import { additionalContext, guarded } from '../runtime/output.js';
import { basename } from 'node:path';
import { takeCompactionAlert } from '../checkpoints/alerts.js';
import { takeFallbackNotice } from '../checkpoints/fallback.js';
import { loadHookConfig } from '../runtime/hook-config.js';
import { parseJson } from '../runtime/hook-io.js';
import { readContext } from '../window/reading.js';
import type { HookHost } from '../runtime/host.js';

export function runUserPromptSubmit(stdin: string | undefined, host: HookHost): HookOutcome {
  const input = parseSessionInput(parseJson(stdin));
  if (!input) return silent('not-a-hook-input');
  const config = loadHookConfig(host, input.cwd);
  const { policy } = config;
  if (!policy.enabled) return silent('disabled');
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
            recoverySkills: operatorRecoverySkills(config.loaded),
            runtimeDir: host.runtimeDir,
          }) ?? 'compact',
        orchestrationFile: basename(policy.orchestrationFile),
        autocompact: resolveAutocompact(host.env),
      }),
    );
  }
  const alert = guarded(() => takeCompactionAlert(config, input.session_id), config.debug);
  if (alert) parts.push(alert);
  const fallback = guarded(() => takeFallbackNotice(config), config.debug);
  const reason = [policy.monitor ? 'monitor' : undefined, alert ? 'compaction-alert' : undefined].filter(Boolean).join('+');
  return additionalContext('UserPromptSubmit', parts, reason, 'monitor-off', fallback);
}
