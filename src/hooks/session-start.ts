/**
 * SessionStart: after a compaction (source "compact") the compaction alert,
 * in the same turn; on startup, clear or resume a pending alert of this
 * session, else the resumption context: after /clear from the project's
 * newest checkpoint, otherwise from an earlier session's unacknowledged one.
 */
import { stringField } from '../core/hook-input.js';
import type { HookOutcome } from '../runtime/hook-io.js';
import { takeClearResumption, takeCompactionAlert, takeResumptionContext } from '../checkpoints/alerts.js';
import { takeFallbackNotice } from '../checkpoints/fallback.js';
import type { HookHost } from '../runtime/host.js';
import { openHook } from '../runtime/open-hook.js';
import { additionalContext, guarded } from '../runtime/additional-context.js';

export function runSessionStart(stdin: string | undefined, host: HookHost): HookOutcome {
  const opened = openHook(stdin, host);
  if (!opened.open) return opened.outcome;
  const { input, config } = opened;
  const source = stringField(input.raw, 'source', 32);
  const fallback = guarded(() => takeFallbackNotice(config), config.debug);
  const alert = guarded(() => takeCompactionAlert(config, input.session_id), config.debug);
  if (alert || source === 'compact')
    return additionalContext('SessionStart', alert ? [alert] : [], 'compaction-alert', 'no-pending-checkpoint', fallback);
  const resumption = guarded(
    () => (source === 'clear' ? takeClearResumption(config) : takeResumptionContext(config, input.session_id)),
    config.debug,
  );
  return additionalContext('SessionStart', resumption ? [resumption] : [], 'resumption-context', 'no-checkpoint-to-resume', fallback);
}
