/** Write a checkpoint of a session's state now: PreCompact and the recovery skill's save step share it. */
import { join } from '../io/join-path.js';
import { buildCheckpoint, type Checkpoint } from '../core/checkpoint.js';
import { sessionCheckpointDir, writeNewCheckpoint } from './store.js';
import { privateProjectDir, recordWritten, digestOf } from './provenance.js';
import { claimFallbackNotice } from './fallback.js';
import { describeError } from '../io/debug.js';
import { readGitBranch } from '../io/git.js';
import { orchestrationPath, readOrchestration } from '../io/orchestration.js';
import { ensurePrivateDir, sanitizeId } from '../io/state.js';
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

/**
 * The checkpoint and its path; throws when it cannot be written (callers decide what that means).
 * When the project's checkpoint folder cannot be used (a committed file or link in the way, a read-only
 * project), the checkpoint goes to the private state directory instead, and the person is told once.
 * Every checkpoint written is recorded there (provenance.ts): only recorded ones are resumed.
 */
export function writeCheckpointNow(
  config: HookConfig,
  host: HookHost,
  request: CheckpointRequest,
): { path: string; checkpoint: Checkpoint; fallback?: string | undefined } {
  const { policy, projectDir, debug } = config;
  const reading = readContext(config, request.transcriptPath, request.sessionId, host.now());
  const {
    document: _document,
    yamlError: _yamlError,
    ...orchestration
  } = readOrchestration(orchestrationPath(projectDir, policy.orchestrationFile), host.parseYaml, projectDir);
  if (orchestration.error) debug(`${orchestration.path}: ${orchestration.error}`);
  if (orchestration.cut) debug(`${orchestration.path}: cut to fit the checkpoint: ${orchestration.cut.join('; ')}`);
  const build = (sequence: number) =>
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
    });
  let written: ReturnType<typeof writeNewCheckpoint>;
  let fallback: string | undefined;
  try {
    written = writeNewCheckpoint(sessionCheckpointDir(projectDir, request.sessionId), build);
  } catch (error) {
    fallback = describeError(error);
    debug(`the project's checkpoint folder cannot be used (${fallback}); writing to the private state directory`);
    written = writeNewCheckpoint(privateSessionDir(config, request.sessionId), build);
    claimFallbackNotice(config, fallback);
  }
  const { path, checkpoint, bytes } = written;
  try {
    recordWritten(config.stateDir, projectDir, {
      kind: 'checkpoint',
      path,
      session: sanitizeId(request.sessionId),
      sequence: checkpoint.sequence,
      digest: digestOf(bytes),
      fact: { trigger: checkpoint.trigger.type, timestamp: checkpoint.timestamp },
    });
  } catch (error) {
    debug(`${checkpoint.id} is not recorded as ours (${describeError(error)}): it will not be resumed`);
  }
  return { path, checkpoint, fallback };
}

/** The session's checkpoint folder in the private state directory, each level created 0700 and owner-checked. */
function privateSessionDir(config: HookConfig, sessionId: string): string {
  ensurePrivateDir(config.stateDir);
  const project = privateProjectDir(config.stateDir, config.projectDir);
  ensurePrivateDir(join(project, '..'));
  ensurePrivateDir(project);
  return ensurePrivateDir(join(project, sanitizeId(sessionId)));
}
