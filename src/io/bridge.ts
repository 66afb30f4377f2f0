/** The statusline bridge: the window Claude Code reports to the status line, kept per session in the state directory. */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BridgeRecord } from '../core/statusline.js';
import type { BridgeFact } from '../core/window.js';
import { writeFileAtomic } from './fs-safe.js';
import { ensurePrivateDir, sanitizeId } from './state.js';

export function bridgePath(stateDir: string, sessionId: string): string {
  return join(stateDir, 'bridge', `${sanitizeId(sessionId)}.json`);
}

export function writeBridge(stateDir: string, bridge: BridgeRecord): string {
  const dir = ensurePrivateDir(join(ensurePrivateDir(stateDir), 'bridge'));
  const path = join(dir, `${sanitizeId(bridge.sessionId)}.json`);
  writeFileAtomic(path, `${JSON.stringify(bridge)}\n`);
  return path;
}

/** The session's bridged window and its age, or undefined when there is none (or it is unreadable). */
export function readBridge(stateDir: string, sessionId: string, now: Date): BridgeFact | undefined {
  try {
    const path = bridgePath(stateDir, sessionId);
    if (statSync(path, { throwIfNoEntry: false }) === undefined) return undefined; // the common case, without an exception
    const record = JSON.parse(readFileSync(path, 'utf8')) as Partial<BridgeRecord>;
    const updated = typeof record.updatedAt === 'string' ? Date.parse(record.updatedAt) : Number.NaN;
    if (!Number.isSafeInteger(record.windowTokens) || (record.windowTokens as number) < 1000 || !Number.isFinite(updated)) return undefined;
    return { tokens: record.windowTokens as number, ageSeconds: Math.max(0, (now.getTime() - updated) / 1000), modelId: typeof record.modelId === 'string' ? record.modelId : undefined };
  } catch {
    return undefined;
  }
}
