/** What one transcript record says about context occupancy (design: "Measuring occupancy"). */
import { isObject } from './json-shape.js';

/** A record that settles the measurement when read newest-first. */
export type OccupancyEvidence =
  | { kind: 'usage'; tokens: number; model: string | undefined }
  | { kind: 'compaction'; postTokens: number | undefined; preTokens: number | undefined; trigger: string | undefined };

/** The occupancy the guard, monitor and status work with. */
export type Occupancy =
  | { kind: 'measured'; tokens: number; source: 'usage' | 'compaction' }
  | { kind: 'unknown-since-compaction' }
  /**
   * no-transcript: none is named, or none is there yet (a session before its first turn); unreadable: one is there but
   * cannot be read (no permission, not a regular file); no-usage: it holds no turn with usage; scan-cap: none within the
   * most a hook reads of its end (maxScanBytes).
   */
  | { kind: 'unavailable'; reason: 'no-transcript' | 'unreadable' | 'no-usage' | 'scan-cap' };

/** Whose records count: the main thread, or one subagent's own transcript. */
export type RecordScope = { agentId?: string | undefined };

/**
 * Substrings every line classifyRecord can settle on contains (an assistant turn or a compaction
 * boundary): readers skip other lines unparsed.
 */
export const RECORD_MARKS = ['"assistant"', 'compact_boundary'] as const;

/** The top-level `type`s of the records classifyRecord can settle on (a turn, a compaction boundary). */
export const RECORD_TYPES = ['assistant', 'system'] as const;

const USAGE_FIELDS = ['input_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const;

/**
 * Classify one parsed transcript line. Returns undefined for everything that
 * does not describe the measured context: non-assistant types (incl. `progress`
 * records that nest a subagent's usage), sidechains, API errors, synthetic
 * turns, records without a sane usage.
 */
export function classifyRecord(record: unknown, scope: RecordScope = {}): OccupancyEvidence | undefined {
  if (!isObject(record)) return undefined;
  const inScope = scope.agentId === undefined ? record.isSidechain !== true : record.agentId === scope.agentId;
  if (record.type === 'system' && record.subtype === 'compact_boundary') {
    if (scope.agentId === undefined && record.isSidechain === true) return undefined;
    const meta = isObject(record.compactMetadata) ? record.compactMetadata : {};
    return {
      kind: 'compaction',
      postTokens: tokenCount(meta.postTokens),
      preTokens: tokenCount(meta.preTokens),
      trigger: typeof meta.trigger === 'string' ? meta.trigger : undefined,
    };
  }
  if (record.type !== 'assistant' || !inScope || record.isApiErrorMessage === true) return undefined;
  const message = record.message;
  if (!isObject(message) || message.model === '<synthetic>') return undefined;
  const tokens = computeUsageTokens(message.usage);
  if (tokens === undefined) return undefined;
  return { kind: 'usage', tokens, model: typeof message.model === 'string' ? message.model : undefined };
}

/**
 * Prompt-side tokens of one turn: input + cache read + cache creation.
 * `input_tokens` must be a count (every real usage has one: a usage without it, or with null, is not a
 * measurement); the cache fields may be absent or null (older clients), counting as zero. Any field that is
 * not a non-negative whole number makes the usage unusable (strings, negatives, fractions and NaN never measure).
 */
export function computeUsageTokens(usage: unknown): number | undefined {
  if (!isObject(usage) || tokenCount(usage.input_tokens) === undefined) return undefined;
  let total = 0;
  let seen = 0;
  for (const field of USAGE_FIELDS) {
    const value = usage[field];
    if (value === undefined || value === null) continue;
    const count = tokenCount(value);
    if (count === undefined) return undefined;
    total += count;
    seen += 1;
  }
  return seen > 0 && Number.isSafeInteger(total) ? total : undefined;
}

/** Turn the newest settling record into an occupancy. */
export function occupancyFromEvidence(evidence: OccupancyEvidence | undefined, scanCapHit = false): Occupancy {
  if (evidence === undefined) return { kind: 'unavailable', reason: scanCapHit ? 'scan-cap' : 'no-usage' };
  if (evidence.kind === 'usage') return { kind: 'measured', tokens: evidence.tokens, source: 'usage' };
  if (evidence.postTokens !== undefined) return { kind: 'measured', tokens: evidence.postTokens, source: 'compaction' };
  return { kind: 'unknown-since-compaction' };
}

function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
