/**
 * PreCompact: write a checkpoint of the state at compaction, atomically, under
 * a fresh number, and tell the summariser (plain stdout) what must survive.
 */
import { basename, resolve, sep } from 'node:path';
import { renderSummariserBrief } from '../core/compaction-text.js';
import { describeFill } from '../core/text-budget.js';
import { describeError } from '../io/debug.js';
import { silent, type HookOutcome } from '../runtime/hook-io.js';
import { writeCheckpointNow } from '../checkpoints/write-now.js';
import { readSessionHistory } from '../checkpoints/history.js';
import { ownCheckpoints } from '../checkpoints/alerts.js';
import { readWrittenRecords } from '../checkpoints/provenance.js';
import { sanitizeId } from '../io/state.js';
import type { HookConfig } from '../runtime/hook-config.js';
import { isCompaction } from '../core/checkpoint-choice.js';
import type { HookHost } from '../runtime/host.js';
import { openHook } from '../runtime/open-hook.js';

export function runPreCompact(stdin: string | undefined, host: HookHost): HookOutcome {
  const opened = openHook(stdin, host);
  if (!opened.open) return opened.outcome;
  const { input, config } = opened;
  const { policy, projectDir, debug } = config;
  try {
    const { path, checkpoint } = writeCheckpointNow(config, host, {
      sessionId: input.session_id,
      transcriptPath: input.transcript_path,
      trigger: input.raw.trigger,
      customInstructions: input.raw.custom_instructions,
      cwd: input.cwd ?? host.cwd,
    });
    // Plain text, never JSON: Claude Code appends it to the summariser's instructions (JSON is only shown raw).
    const brief = renderSummariserBrief({
      checkpoint,
      checkpointPath: shownPath(projectDir, path),
      orchestrationFile: basename(policy.orchestrationFile),
      fill: describeFill(checkpoint),
      recoverySave: recoverySaveBefore(config, input.session_id, checkpoint.sequence),
    });
    return { exitCode: 0, stdout: `${brief}\n`, stderr: '', reason: `checkpoint ${checkpoint.id}` };
  } catch (error) {
    debug(`checkpoint not written: ${describeError(error)}`);
    return silent('checkpoint-not-written');
  }
}

/** The id of the session's checkpoint just before `sequence` when the recovery skill saved it (the /compact it asked for is this one). */
function recoverySaveBefore(config: HookConfig, sessionId: string, sequence: number): string | undefined {
  // Numbers start at 1 (store.ts writeNewCheckpoint) and only ours are recorded: a session's first checkpoint has none
  // before it, and its PreCompact (the usual one) reads no records.
  if (sequence <= 1) return undefined;
  const session = sanitizeId(sessionId);
  const before = ownCheckpoints(readWrittenRecords(config.stateDir, config.projectDir, session), session)
    .filter((entry) => entry.sequence < sequence)
    .at(-1);
  if (!before) return undefined;
  const [fact] = readSessionHistory([before]).facts;
  return fact && !isCompaction(fact) ? fact.id : undefined;
}

/** Project-relative when the checkpoint is in the project; absolute when it went to the private state directory. */
function shownPath(projectDir: string, path: string): string {
  // path.relative's answer for a path under the project, without path.relative (compiled on its first use: ~0.4 M instructions).
  const root = resolve(projectDir);
  const full = resolve(path);
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  const inside = full.startsWith(prefix) ? full.slice(prefix.length) : '';
  return inside && !inside.startsWith('..') ? inside : path;
}
