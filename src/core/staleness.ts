/** The warning after the orchestration file is written with a stale (or missing, or unparseable) resumption section. */
import { clip, flatten } from './text-budget.js';
import { describeAge } from './window.js';

export type StalenessFacts =
  | { kind: 'fresh' }
  | { kind: 'unparseable'; error: string }
  | { kind: 'no-resumption' }
  | { kind: 'no-updated-at' }
  | { kind: 'bad-updated-at'; value: string }
  | { kind: 'stale'; updatedAt: string; ageMinutes: number; staleMinutes: number };

/** What the hook read of the written file: missing (nothing to say), unusable (unparseable when it is not YAML), or a document. */
export type WrittenOrchestration = { status: 'missing' | 'unavailable' | 'loaded'; yamlError?: string | undefined; document: unknown };

/** The staleness of the orchestration file just written; undefined when it is gone (nothing to warn about). */
export function judgeWrittenOrchestration(read: WrittenOrchestration, now: Date, staleMinutes: number): StalenessFacts | undefined {
  if (read.status === 'missing') return undefined;
  if (read.status === 'unavailable')
    return read.yamlError !== undefined ? { kind: 'unparseable', error: read.yamlError } : { kind: 'no-resumption' };
  const root = read.document;
  return judgeStaleness(
    typeof root === 'object' && root !== null ? (root as Record<string, unknown>).resumption : undefined,
    now,
    staleMinutes,
  );
}

/** Judge resumption.updated_at against `now`. Pure: the parsed YAML and the clock come in. */
export function judgeStaleness(resumption: unknown, now: Date, staleMinutes: number): StalenessFacts {
  if (typeof resumption !== 'object' || resumption === null || Array.isArray(resumption)) return { kind: 'no-resumption' };
  const raw = (resumption as Record<string, unknown>).updated_at;
  if (raw === undefined || raw === null || raw === '') return { kind: 'no-updated-at' };
  const time = raw instanceof Date ? raw.getTime() : typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
  if (!Number.isFinite(time)) return { kind: 'bad-updated-at', value: String(raw).slice(0, 80) };
  const ageMinutes = Math.floor((now.getTime() - time) / 60_000);
  if (ageMinutes <= staleMinutes) return { kind: 'fresh' };
  return { kind: 'stale', updatedAt: new Date(time).toISOString(), ageMinutes, staleMinutes };
}

export function renderStaleness(s: StalenessFacts, fileName: string): string | undefined {
  const file = clip(fileName, 120);
  const fix = `Update the resumption section (current_phase, current_activity, next_step, decisions) and set resumption.updated_at to the current time (ISO 8601), so a compaction or a new session can resume from it.`;
  switch (s.kind) {
    case 'fresh':
      return undefined;
    case 'unparseable':
      return `context-ceiling: ${file} was just written but is not valid YAML (${clip(flatten(s.error), 200)}). Fix it: checkpoints cannot record its resumption section until it parses.`;
    case 'no-resumption':
      return `context-ceiling: ${file} was just written but has no resumption: section. ${fix}`;
    case 'no-updated-at':
      return `context-ceiling: ${file} was just written but resumption.updated_at is missing. ${fix}`;
    case 'bad-updated-at':
      return `context-ceiling: ${file} was just written but resumption.updated_at ("${clip(s.value, 80)}") is not a timestamp. ${fix}`;
    case 'stale':
      return `context-ceiling: ${file} was just written but its resumption section was last updated ${describeAge(s.ageMinutes * 60)} ago (updated_at ${s.updatedAt}; stale after ${s.staleMinutes} min). ${fix}`;
  }
}
