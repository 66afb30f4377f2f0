/** Mark a checkpoint file a test wrote by hand as one our hooks wrote (the record PreCompact keeps in the private state). */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { digestOf, recordWritten } from '../../src/checkpoints/provenance.js';
import { sequenceOf } from '../../src/core/checkpoint.js';

export function recordAsOurs(stateDir: string, projectDir: string, path: string, session: string): void {
  recordWritten(stateDir, projectDir, {
    kind: 'checkpoint',
    path,
    session,
    sequence: sequenceOf(basename(path)) ?? 0,
    digest: digestOf(readFileSync(path)),
  });
}
