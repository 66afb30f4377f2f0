/**
 * PostCompact: keep Claude Code's compact_summary beside the session's newest
 * checkpoint and record which must-keep items it dropped. Prints nothing:
 * PostCompact output reaches only the person, and the alerts speak to the model.
 */
import { buildKeptSummary } from '../core/compaction-text.js';
import { parseSessionInput } from '../core/hook-input.js';
import { listCheckpoints, readCheckpointFile, sessionCheckpointDir } from '../io/checkpoints.js';
import { describeError } from '../io/debug.js';
import { silent, type HookOutcome } from '../io/hook-io.js';
import { writeKeptSummary } from '../io/kept-summary.js';
import { loadSettings, parseJson, type HookContext } from './context.js';

export function runPostCompact(stdin: string | undefined, ctx: HookContext): HookOutcome {
  const input = parseSessionInput(parseJson(stdin));
  if (!input) return silent('not-a-hook-input');
  const settings = loadSettings(ctx, input.cwd);
  const { debug } = settings;
  if (!settings.policy.enabled) return silent('disabled');
  const summary = input.raw.compact_summary;
  if (typeof summary !== 'string' || summary.trim() === '') return silent('no-summary');
  const entries = listCheckpoints(sessionCheckpointDir(settings.projectDir, input.session_id));
  const newest = entries[entries.length - 1];
  const checkpoint = newest && readCheckpointFile(newest.path);
  if (!newest || !checkpoint) {
    debug(newest ? `${newest.path} is corrupt; the summary is not kept` : 'no checkpoint in this session; the summary is not kept');
    return silent(newest ? 'checkpoint-corrupt' : 'no-checkpoint');
  }
  try {
    const kept = buildKeptSummary({ checkpoint, summary, trigger: input.raw.trigger, now: ctx.now() });
    const path = writeKeptSummary(newest, kept);
    debug(`kept the summary of ${checkpoint.id} at ${path}; missing: ${kept.missing.map((m) => m.kind).join(', ') || 'none'}`);
    return silent('summary-kept');
  } catch (error) {
    debug(`summary not kept: ${describeError(error)}`);
    return silent('summary-not-kept');
  }
}
