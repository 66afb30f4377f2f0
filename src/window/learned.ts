/**
 * What the package learns about windows, kept in the private state directory:
 * per model, the window Claude Code's status line last reported (so later
 * sessions of that model, print mode included, use it), and per session, the
 * most tokens it was seen to hold above its window (so a compaction that
 * hides the occupancy does not hide the proof that the window is wrong).
 */
import { join } from '../io/join-path.js';
import type { LearnedFact } from '../core/window.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import { ensurePrivateDir, readPrivateJson, sanitizeId } from '../io/state.js';

const LEARNED_FILE = 'learned-windows.json';
const EVIDENCE_FILE = 'window-evidence.json';
/** Models remembered; the least recently reported are forgotten first. */
const MAX_MODELS = 64;

type LearnedEntry = { tokens: number; updatedAt: string };
type LearnedFile = { models: Record<string, LearnedEntry> };

/** The window last reported for `modelId`, when a trustworthy record exists. */
export function readLearnedWindow(stateDir: string, modelId: string | undefined): LearnedFact | undefined {
  if (modelId === undefined) return undefined;
  const entry = readLearnedFile(stateDir)?.models[modelId];
  return entry ? { tokens: entry.tokens, modelId } : undefined;
}

/** Remember `tokens` as `modelId`'s window; writes only when the record changes. */
export function recordLearnedWindow(stateDir: string, modelId: string, tokens: number, now: Date): boolean {
  if (modelId.length === 0 || modelId.length > 200 || !isWindowSize(tokens)) return false;
  const current = readLearnedFile(stateDir) ?? { models: {} };
  if (current.models[modelId]?.tokens === tokens) return false;
  const models = { ...current.models, [modelId]: { tokens, updatedAt: now.toISOString() } };
  const kept = Object.entries(models)
    .sort(([, a], [, b]) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, MAX_MODELS);
  writeFileAtomic(join(ensurePrivateDir(stateDir), LEARNED_FILE), `${JSON.stringify({ models: Object.fromEntries(kept) })}\n`);
  return true;
}

/** The most tokens session `key` was seen to hold above its window, or 0. */
export function readWindowEvidence(stateDir: string, key: string): number {
  const value = readPrivateJson(join(stateDir, 'sessions', sanitizeId(key)), EVIDENCE_FILE) as { tokens?: unknown } | undefined;
  return value && isTokenCount(value.tokens) ? value.tokens : 0;
}

/** Keep `tokens` as the session's evidence (callers write only what exceeds what was kept). */
export function writeWindowEvidence(stateDir: string, key: string, tokens: number): void {
  if (!isTokenCount(tokens)) return;
  const sessions = ensurePrivateDir(join(ensurePrivateDir(stateDir), 'sessions'));
  const dir = ensurePrivateDir(join(sessions, sanitizeId(key)));
  writeFileAtomic(join(dir, EVIDENCE_FILE), `${JSON.stringify({ tokens })}\n`);
}

function readLearnedFile(stateDir: string): LearnedFile | undefined {
  const value = readPrivateJson(stateDir, LEARNED_FILE) as { models?: unknown } | undefined;
  if (!value || typeof value.models !== 'object' || value.models === null || Array.isArray(value.models)) return undefined;
  const models: Record<string, LearnedEntry> = {};
  for (const [model, entry] of Object.entries(value.models as Record<string, Partial<LearnedEntry>>)) {
    if (entry && isWindowSize(entry.tokens) && typeof entry.updatedAt === 'string')
      models[model] = { tokens: entry.tokens, updatedAt: entry.updatedAt };
  }
  return { models };
}

function isWindowSize(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1000 && value <= 100_000_000;
}

function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}
