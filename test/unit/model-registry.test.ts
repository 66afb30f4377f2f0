/** Drift: the committed model table is what the pinned Claude Code's own catalog says (scripts/models.mjs --check). */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/sandbox.js';

describe('src/core/model-registry.generated.ts', () => {
  it('matches the pinned Claude Code binary (run `npm run models` when this fails; a missing binary fails too)', () => {
    // The binary comes from scripts/models/client-bin.mjs (CLAUDE_CODE_BIN, else the pinned client, installed on demand).
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'models.mjs'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/ matches @anthropic-ai\/claude-code@\d+\.\d+\.\d+ /);
  });
});
