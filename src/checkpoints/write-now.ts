/** Write a checkpoint of a session's state now: PreCompact and the recovery skill's save step share it. */
import { buildCheckpoint, type Checkpoint } from '../core/checkpoint.js';
import { sessionCheckpointDir, writeNewCheckpoint } from './store.js';
import { readGitBranch } from '../io/git.js';
import { orchestrationPath, readOrchestration } from '../io/orchestration.js';
import { readContext } from '../window/reading.js';
import type { HookHost } from '../runtime/host.js';
import type { HookConfig } from '../runtime/hook-config.js';

export type CheckpointRequest = {
  sessionId: string;
  transcriptPath: string | undefined;
  trigger: unknown;
  customInstructions: unknown;
  cwd: string;
};

/** The checkpoint and its path; throws when it cannot be written (callers decide what that means). */
export function writeCheckpointNow(
  config: HookConfig,
  host: HookHost,
  request: CheckpointRequest,
): { path: string; checkpoint: Checkpoint } {
  const { policy, projectDir, debug } = config;
  const reading = readContext(config, request.transcriptPath, request.sessionId, host.now());
  const {
    document: _document,
    yamlError: _yamlError,
    ...orchestration
  } = readOrchestration(orchestrationPath(projectDir, policy.orchestrationFile), host.parseYaml);
  if (orchestration.error) debug(`${orchestration.path}: ${orchestration.error}`);
  if (orchestration.cut) debug(`${orchestration.path}: cut to fit the checkpoint: ${orchestration.cut.join('; ')}`);
  return writeNewCheckpoint(sessionCheckpointDir(projectDir, request.sessionId), (sequence) =>
    buildCheckpoint({
      sequence,
      now: host.now(),
      sessionId: request.sessionId,
      trigger: request.trigger,
      customInstructions: request.customInstructions,
      occupancy: reading.occupancy,
      percent: reading.percent,
      tier: reading.tier,
      window: reading.window,
      ceilingPct: policy.ceilingPct,
      orchestration,
      session: { cwd: request.cwd, projectDir, gitBranch: readGitBranch(projectDir), transcriptPath: request.transcriptPath ?? null },
    }),
  );
}
