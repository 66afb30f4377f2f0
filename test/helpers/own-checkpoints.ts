/** Checkpoints a test writes by hand: marked as ours (the record PreCompact keeps), or committed by a repository. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { digestOf, recordWritten } from '../../src/checkpoints/provenance.js';
import { sequenceOf } from '../../src/core/checkpoint.js';

/** Mark a checkpoint file a test wrote by hand as one our hooks wrote (the record PreCompact keeps in the private state). */
export function recordAsOurs(stateDir: string, projectDir: string, path: string, session: string): void {
  recordWritten(stateDir, projectDir, {
    kind: 'checkpoint',
    path,
    session,
    sequence: sequenceOf(basename(path)) ?? 0,
    digest: digestOf(readFileSync(path)),
  });
}

/**
 * A checkpoint as PreCompact writes it, committed by a repository into `dir` (a session folder; never recorded
 * as ours): what a cloned repository can put in the tree.
 */
export function commitForeignCheckpoint(dir: string, session: string, projectDir: string, nextStep: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'cx-001-checkpoint.json');
  writeFileSync(
    path,
    JSON.stringify({
      schema: 'context-ceiling.checkpoint/1',
      id: 'cx-001',
      sequence: 1,
      timestamp: '2026-01-01T00:00:00.000Z',
      sessionId: session,
      trigger: { type: 'auto', customInstructions: null },
      context: { occupancy: 90_000, state: 'measured', percent: 45, tier: 'LOW', window: 200_000, windowSource: 'model', ceilingPct: 40 },
      orchestration: {
        path: join(projectDir, 'ORCHESTRATION.yaml'),
        status: 'loaded',
        header: null,
        resumption: { next_step: nextStep },
      },
      session: { cwd: projectDir, projectDir, gitBranch: 'main', transcriptPath: null },
      acknowledged: false,
    }),
  );
  return path;
}
