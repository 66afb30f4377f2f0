/**
 * What Claude Code's status line last reported for a session (its window, model and usage), kept in the
 * private state directory so the hooks, which are never told the window, can use it while it is fresh.
 */
import { join } from '../io/join-path.js';
import type { StatuslineRecord } from '../core/statusline.js';
import type { StatuslineFact } from '../core/window.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import { readRegularText } from '../io/read-safe.js';
import { ensurePrivateDir, privateDirForRead, sanitizeId } from '../io/state.js';

/** A record is one short line. */
const MAX_RECORD_BYTES = 16 * 1024;
const FOLDER = 'statusline';

export function statuslineReportPath(stateDir: string, sessionId: string): string {
  return join(stateDir, FOLDER, `${sanitizeId(sessionId)}.json`);
}

export function writeStatuslineReport(stateDir: string, record: StatuslineRecord): string {
  const dir = ensurePrivateDir(join(ensurePrivateDir(stateDir), FOLDER));
  const path = join(dir, `${sanitizeId(record.sessionId)}.json`);
  writeFileAtomic(path, `${JSON.stringify(record)}\n`);
  return path;
}

/**
 * The session's reported window and its age, or undefined when there is none, it is unreadable, or
 * the state directory could have been written by someone else.
 */
export function readStatuslineReport(stateDir: string, sessionId: string, now: Date): StatuslineFact | undefined {
  try {
    const root = privateDirForRead(stateDir);
    const dir = root && privateDirForRead(join(root, FOLDER));
    if (!dir) return undefined;
    const text = readRegularText(join(dir, `${sanitizeId(sessionId)}.json`), MAX_RECORD_BYTES, { noFollow: true });
    if (text === undefined) return undefined;
    const record = JSON.parse(text) as Partial<StatuslineRecord>;
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
