/**
 * PreCompact: write a checkpoint of the state at compaction, atomically, under
 * a fresh number, and tell the summariser (plain stdout) what must survive.
 */
import { basename, relative } from 'node:path';
import { parseSessionInput } from '../core/hook-input.js';
import { renderSummariserBrief } from '../core/compaction-text.js';
import { describeFill } from '../core/templates.js';
import { describeError } from '../io/debug.js';
import { silent, type HookOutcome } from '../io/hook-io.js';
import { writeCheckpointNow } from './checkpoint-now.js';
import { loadSettings, parseJson, type HookContext } from './context.js';

export function runPreCompact(stdin: string | undefined, ctx: HookContext): HookOutcome {
  const input = parseSessionInput(parseJson(stdin));
  if (!input) return silent('not-a-hook-input');
  const settings = loadSettings(ctx, input.cwd);
  const { policy, projectDir, debug } = settings;
  if (!policy.enabled) return silent('disabled');
  try {
    const { path, checkpoint } = writeCheckpointNow(settings, ctx, {
      sessionId: input.session_id,
      transcriptPath: input.transcript_path,
      trigger: input.raw.trigger,
      customInstructions: input.raw.custom_instructions,
      cwd: input.cwd ?? ctx.cwd,
    });
    // Plain text, never JSON: Claude Code appends it to the summariser's instructions (JSON is only shown raw).
    const brief = renderSummariserBrief({
      checkpoint,
      checkpointPath: relative(projectDir, path) || path,
      orchestrationFile: basename(policy.orchestrationFile),
      fill: describeFill(checkpoint),
    });
    return { exitCode: 0, stdout: `${brief}\n`, stderr: '', reason: `checkpoint ${checkpoint.id}` };
  } catch (error) {
    debug(`checkpoint not written: ${describeError(error)}`);
    return silent('checkpoint-not-written');
  }
}
