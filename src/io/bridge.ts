/** The statusline bridge: the window Claude Code reports to the status line, kept per session in the state directory. */
import { join } from 'node:path';
import type { BridgeRecord } from '../core/statusline.js';
import type { BridgeFact } from '../core/window.js';
import { writeFileAtomic } from './fs-safe.js';
import { readRegularText } from './read-safe.js';
import { ensurePrivateDir, privateDirForRead, sanitizeId } from './state.js';

/** A bridge record is one short line. */
const MAX_BRIDGE_BYTES = 16 * 1024;

export function bridgePath(stateDir: string, sessionId: string): string {
  return join(stateDir, 'bridge', `${sanitizeId(sessionId)}.json`);
}

export function writeBridge(stateDir: string, bridge: BridgeRecord): string {
  const dir = ensurePrivateDir(join(ensurePrivateDir(stateDir), 'bridge'));
  const path = join(dir, `${sanitizeId(bridge.sessionId)}.json`);
  writeFileAtomic(path, `${JSON.stringify(bridge)}\n`);
  return path;
}

/**
 * The session's bridged window and its age, or undefined when there is none,
 * it is unreadable, or the state directory could have been written by someone else.
 */
export function readBridge(stateDir: string, sessionId: string, now: Date): BridgeFact | undefined {
  try {
    const root = privateDirForRead(stateDir);
    const dir = root && privateDirForRead(join(root, 'bridge'));
    if (!dir) return undefined;
    const text = readRegularText(join(dir, `${sanitizeId(sessionId)}.json`), MAX_BRIDGE_BYTES, { noFollow: true });
    if (text === undefined) return undefined;
    const record = JSON.parse(text) as Partial<BridgeRecord>;
    const updated = typeof record.updatedAt === 'string' ? Date.parse(record.updatedAt) : Number.NaN;
    if (!Number.isSafeInteger(record.windowTokens) || (record.windowTokens as number) < 1000 || !Number.isFinite(updated)) return undefined;
    return {
      tokens: record.windowTokens as number,
      ageSeconds: Math.max(0, (now.getTime() - updated) / 1000),
      modelId: typeof record.modelId === 'string' ? record.modelId : undefined,
    };
  } catch {
    return undefined;
  }
}
