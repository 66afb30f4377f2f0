/**
 * PreCompact: write a checkpoint of the state at compaction, atomically, under
 * a fresh number, and tell the summariser (plain stdout) what must survive.
 */
import { basename, relative } from 'node:path';
import { buildCheckpoint } from '../core/checkpoint.js';
import { parseSessionInput } from '../core/hook-input.js';
import { renderSummariserBrief } from '../core/compaction-text.js';
import { describeFill } from '../core/templates.js';
import { sessionCheckpointDir, writeNewCheckpoint } from '../io/checkpoints.js';
import { describeError } from '../io/debug.js';
import { readGitBranch } from '../io/git.js';
import { SILENT, type HookOutcome } from '../io/hook-io.js';
import { orchestrationPath, readOrchestration } from '../io/orchestration.js';
import { loadSettings, parseJson, readContext, type HookContext } from './context.js';

export function runPreCompact(stdin: string | undefined, ctx: HookContext): HookOutcome {
  const input = parseSessionInput(parseJson(stdin));
  if (!input) return SILENT;
  const settings = loadSettings(ctx, input.cwd);
  const { policy, projectDir, debug } = settings;
  if (!policy.enabled) return SILENT;
  const reading = readContext(settings, input.transcript_path, input.session_id, ctx.now());
  const { document: _document, yamlError: _yamlError, ...orchestration } = readOrchestration(orchestrationPath(projectDir, policy.orchestrationFile), ctx.parseYaml);
  if (orchestration.error) debug(`${orchestration.path}: ${orchestration.error}`);
  try {
    const { path, checkpoint } = writeNewCheckpoint(sessionCheckpointDir(projectDir, input.session_id), (sequence) =>
      buildCheckpoint({
        sequence,
        now: ctx.now(),
        sessionId: input.session_id,
        trigger: input.raw.trigger,
        customInstructions: input.raw.custom_instructions,
        occupancy: reading.occupancy,
        percent: reading.percent,
        tier: reading.tier,
        window: reading.window,
        ceilingPct: policy.ceilingPct,
        orchestration,
        session: { cwd: input.cwd ?? ctx.cwd, projectDir, gitBranch: readGitBranch(projectDir), transcriptPath: input.transcript_path ?? null },
      }),
    );
    // Plain text, never JSON: Claude Code appends it to the summariser's instructions (JSON is only shown raw).
    const brief = renderSummariserBrief({ checkpoint, checkpointPath: relative(projectDir, path) || path, orchestrationFile: basename(policy.orchestrationFile), fill: describeFill(checkpoint) });
    return { exitCode: 0, stdout: `${brief}\n`, stderr: '' };
  } catch (error) {
    debug(`checkpoint not written: ${describeError(error)}`);
    return SILENT;
  }
}
