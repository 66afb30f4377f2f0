/**
 * SessionStart: after a compaction (source "compact") the compaction alert,
 * in the same turn; on startup, clear or resume a pending alert of this
 * session, else the resumption context: after /clear from the project's
 * newest checkpoint, otherwise from an earlier session's unacknowledged one.
 */
import { parseSessionInput, stringField } from '../core/hook-input.js';
import { silent, type HookOutcome } from '../io/hook-io.js';
import { takeClearResumption, takeCompactionAlert, takeResumptionContext } from './alerts.js';
import { loadSettings, parseJson, type HookContext } from './context.js';
import { additionalContext, guarded } from './output.js';

export function runSessionStart(stdin: string | undefined, ctx: HookContext): HookOutcome {
  const input = parseSessionInput(parseJson(stdin));
  if (!input) return silent('not-a-hook-input');
  const settings = loadSettings(ctx, input.cwd);
  if (!settings.policy.enabled) return silent('disabled');
  const source = stringField(input.raw, 'source', 32);
  const alert = guarded(() => takeCompactionAlert(settings, input.session_id), settings.debug);
  if (alert || source === 'compact')
    return additionalContext('SessionStart', alert ? [alert] : [], 'compaction-alert', 'no-pending-checkpoint');
  const resumption = guarded(
    () => (source === 'clear' ? takeClearResumption(settings) : takeResumptionContext(settings, input.session_id)),
    settings.debug,
  );
  return additionalContext('SessionStart', resumption ? [resumption] : [], 'resumption-context', 'no-checkpoint-to-resume');
}
