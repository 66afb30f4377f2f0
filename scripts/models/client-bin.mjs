/** Where the pinned Claude Code binary is: the one place scripts and tests ask (point it elsewhere here, and only here). */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { claudeCodeBinary } from '../claude-client.mjs';

export const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * `CLAUDE_CODE_BIN`, else the pinned client from the on-demand cache (scripts/claude-client.mjs installs it when
 * missing; CLAUDE_CODE_VERSION picks another version); `from` says which, for messages.
 */
export function claudeCodeBin(env = process.env) {
  if (env.CLAUDE_CODE_BIN) return { path: resolve(env.CLAUDE_CODE_BIN), from: 'CLAUDE_CODE_BIN' };
  return { path: realpathSync(claudeCodeBinary()), from: 'the pinned client (scripts/claude-client.mjs)' };
}
