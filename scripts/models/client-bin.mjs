/** Where the pinned Claude Code binary is: the one place scripts and tests ask (point it elsewhere here, and only here). */
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');

/** `CLAUDE_CODE_BIN`, else the binary the npm package's postinstall puts in node_modules; `from` says which, for messages. */
export function claudeCodeBin(env = process.env) {
  if (env.CLAUDE_CODE_BIN) return { path: resolve(env.CLAUDE_CODE_BIN), from: 'CLAUDE_CODE_BIN' };
  return { path: join(ROOT, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'), from: 'node_modules' };
}
