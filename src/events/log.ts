/**
 * The guard's event log: every warning and block, one JSON line each, appended to `events.jsonl` in the
 * private state directory. In print mode and the SDK the person sees no hook output at all
 * (CLAUDE-CODE-FACTS.md, 2.1.331), so this is where a CI job finds what happened (`context-ceiling events`).
 */
import { closeSync, constants, fstatSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from '../io/join-path.js';
import { readRegularText } from '../io/read-safe.js';
import { ensurePrivateDir, privateDirForRead } from '../io/state.js';

export const EVENT_LOG = 'events.jsonl';
/** The log is rotated (one previous file kept) past this size: thousands of events, never a disk. */
const ROTATE_BYTES = 1024 * 1024;
/** One event is a few hundred bytes; a line over this was not written by us and is skipped. */
const MAX_LINE_BYTES = 8 * 1024;

export type GuardEvent = {
  /** ISO time. */
  at: string;
  session: string;
  /** Set for a call judged inside a subagent. */
  agent?: string | undefined;
  project: string;
  tool: string;
  target?: string | undefined;
  outcome: 'warn' | 'block';
  messageId: string;
  occupancy?: number | undefined;
  percent?: number | undefined;
  ceilingPct: number;
  window: { tokens: number; source: string; detail?: string | undefined };
  strict: boolean;
};

/**
 * Append one event. One write of a line under PIPE_BUF-sized limits with O_APPEND, so concurrent hooks
 * never interleave; the file is created 0600 and never through a symlink. Throws on I/O failure.
 */
export function appendEvent(stateDir: string, event: GuardEvent): void {
  const dir = ensurePrivateDir(stateDir);
  const path = join(dir, EVENT_LOG);
  const line = Buffer.from(`${JSON.stringify(event)}\n`);
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    0o600,
  );
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    if (stat.size > ROTATE_BYTES) renameSync(path, join(dir, `${EVENT_LOG}.1`)); // this fd now writes the rotated file's last line
    writeSync(fd, line);
  } finally {
    closeSync(fd);
  }
}

/** Every event kept (the rotated file first), oldest first; unreadable or foreign records are skipped. */
export function readEvents(stateDir: string): GuardEvent[] {
  const dir = privateDirForRead(stateDir);
  if (!dir) return [];
  const events: GuardEvent[] = [];
  for (const name of [`${EVENT_LOG}.1`, EVENT_LOG]) {
    let text: string | undefined;
    try {
      text = readRegularText(join(dir, name), ROTATE_BYTES * 2, { noFollow: true, ownedBy: process.getuid?.() });
    } catch {
      continue;
    }
    for (const line of text?.split('\n') ?? []) {
      if (line.length === 0 || line.length > MAX_LINE_BYTES) continue;
      const event = parseEvent(line);
      if (event) events.push(event);
    }
  }
  return events;
}

function parseEvent(line: string): GuardEvent | undefined {
  try {
    const value = JSON.parse(line) as Partial<GuardEvent>;
    const ok =
      typeof value.at === 'string' &&
      typeof value.session === 'string' &&
      typeof value.tool === 'string' &&
      (value.outcome === 'warn' || value.outcome === 'block') &&
      typeof value.window?.tokens === 'number';
    return ok ? (value as GuardEvent) : undefined;
  } catch {
    return undefined;
  }
}
