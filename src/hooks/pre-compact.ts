/**
 * PreCompact: write a checkpoint of the state at compaction, atomically, under
 * a fresh number, and tell the summariser (plain stdout) what must survive.
 */
import { basename, relative } from 'node:path';
import { parseSessionInput } from '../core/hook-input.js';
import { renderSummariserBrief } from '../core/compaction-text.js';
import { describeFill } from '../core/templates.js';
import { describeError } from '../io/debug.js';
import { silent, type HookOutcome } from '../runtime/hook-io.js';
import { writeCheckpointNow } from '../checkpoints/write-now.js';
import { loadHookConfig } from '../runtime/hook-config.js';
import { parseJson } from '../runtime/hook-io.js';
import type { HookHost } from '../runtime/host.js';

export function runPreCompact(stdin: string | undefined, host: HookHost): HookOutcome {
  const input = parseSessionInput(parseJson(stdin));
  if (!input) return silent('not-a-hook-input');
  const config = loadHookConfig(host, input.cwd);
  const { policy, projectDir, debug } = config;
  if (!policy.enabled) return silent('disabled');
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
    });
    return { exitCode: 0, stdout: `${brief}\n`, stderr: '', reason: `checkpoint ${checkpoint.id}` };
  } catch (error) {
    debug(`checkpoint not written: ${describeError(error)}`);
    return silent('checkpoint-not-written');
  }
}

/** Project-relative when the checkpoint is in the project; absolute when it went to the private state directory. */
function shownPath(projectDir: string, path: string): string {
  const inside = relative(projectDir, path);
  return inside && !inside.startsWith('..') ? inside : path;
}
