/**
 * PostCompact: keep Claude Code's compact_summary beside the session's newest
 * checkpoint and record which must-keep items it dropped. Prints nothing:
 * PostCompact output reaches only the person, and the alerts speak to the model.
 */
import { buildKeptSummary } from '../core/compaction-text.js';
import { readCheckpointText } from '../checkpoints/store.js';
import { ownCheckpoints } from '../checkpoints/alerts.js';
import { digestOf, isOwnFile, readWrittenRecords, recordWritten } from '../checkpoints/provenance.js';
import { sanitizeId } from '../io/state.js';
import { describeError } from '../io/debug.js';
import { silent, type HookOutcome } from '../runtime/hook-io.js';
import { writeKeptSummary } from '../checkpoints/kept-summary.js';
import type { HookHost } from '../runtime/host.js';
import { openHook } from '../runtime/open-hook.js';

export function runPostCompact(stdin: string | undefined, host: HookHost): HookOutcome {
  const opened = openHook(stdin, host);
  if (!opened.open) return opened.outcome;
  const { input, config } = opened;
  const { debug } = config;
  const summary = input.raw.compact_summary;
  if (typeof summary !== 'string' || summary.trim() === '') return silent('no-summary');
  // Only beside a checkpoint this session wrote (provenance.ts): the newest one we recorded, wherever it went.
  const session = sanitizeId(input.session_id);
  const records = readWrittenRecords(config.stateDir, config.projectDir, session);
  const entries = ownCheckpoints(records, session);
  const newest = entries[entries.length - 1];
  const read = newest && readCheckpointText(newest.path);
  const checkpoint = read && isOwnFile(records, 'checkpoint', newest.path, read.text) ? read.checkpoint : undefined;
  if (!newest || !checkpoint) {
    debug(
      newest
        ? `${newest.path} is not the checkpoint we wrote; the summary is not kept`
        : 'no checkpoint of this session; the summary is not kept',
    );
    return silent(newest ? 'checkpoint-corrupt' : 'no-checkpoint');
  }
  try {
    const kept = buildKeptSummary({ checkpoint, summary, trigger: input.raw.trigger, now: host.now() });
    const { path, text } = writeKeptSummary(newest, kept);
    recordWritten(config.stateDir, config.projectDir, {
      kind: 'summary',
      path,
      session,
      sequence: newest.sequence,
      digest: digestOf(text),
    });
    debug(`kept the summary of ${checkpoint.id} at ${path}; missing: ${kept.missing.map((m) => m.kind).join(', ') || 'none'}`);
    return silent('summary-kept');
  } catch (error) {
    debug(`summary not kept: ${describeError(error)}`);
    return silent('summary-not-kept');
  }
}
