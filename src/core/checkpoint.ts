/** The checkpoint PreCompact writes: what it holds, how it is named, how it is read back. */
import type { Occupancy } from './occupancy.js';
import { parseTier, type Tier } from './tiers.js';
import type { WindowSource } from './window.js';
import { asRecord as record } from './json-shape.js';
import { CHECKPOINT_FIELD_CHARS } from './limits.js';

export const CHECKPOINT_SCHEMA = 'context-ceiling.checkpoint/1';

export type OrchestrationRecord = {
  /** Absolute path of the orchestration file that was looked for. */
  path: string;
  status: 'loaded' | 'missing' | 'unavailable';
  /** Why it was unavailable (malformed YAML, unreadable, no resumption section...). */
  error?: string | undefined;
  header: Record<string, unknown> | null;
  resumption: Record<string, unknown> | null;
  /** What was cut to keep the checkpoint within its caps (json-cap.ts), one note per cut. */
  cut?: string[] | undefined;
};

export type Checkpoint = {
  schema: typeof CHECKPOINT_SCHEMA;
  id: string;
  sequence: number;
  timestamp: string;
  sessionId: string;
  /** `skill`: saved by the recovery skill (save-checkpoint) rather than at a compaction. */
  trigger: { type: CheckpointTrigger; customInstructions: string | null };
  context: {
    occupancy: number | null;
    state: Occupancy['kind'];
    percent: number | null;
    tier: Tier;
    window: number;
    windowSource: WindowSource;
    /** The model, file or report behind the window, when there is one (as describeWindowSource shows it). */
    windowDetail?: string | undefined;
    ceilingPct: number;
  };
  orchestration: OrchestrationRecord;
  session: { cwd: string; projectDir: string; gitBranch: string | null; transcriptPath: string | null };
  /** Always false when written; acknowledgement is a marker file beside the checkpoint. Honoured when true. */
  acknowledged: boolean;
};

export type CheckpointTrigger = 'auto' | 'manual' | 'skill' | 'unknown';

const TRIGGERS: readonly string[] = ['auto', 'manual', 'skill'];

const NAME = /^cx-(\d{3,9})-checkpoint\.json$/;

/** cx-001-checkpoint.json, cx-042-..., cx-1000-... */
export function checkpointFileName(sequence: number): string {
  return `cx-${String(sequence).padStart(3, '0')}-checkpoint.json`;
}

export function checkpointId(sequence: number): string {
  return `cx-${String(sequence).padStart(3, '0')}`;
}

/** The sequence number a checkpoint file name carries, or undefined for any other file. */
export function sequenceOf(fileName: string): number | undefined {
  const match = NAME.exec(fileName);
  return match ? Number(match[1]) : undefined;
}

const MARKER_SUFFIX = '.acknowledged';

/** The acknowledgement marker's name for a checkpoint file: the one we write. */
export function ackMarkerName(fileName: string): string {
  return fileName.replace(/\.json$/, MARKER_SUFFIX);
}

/** Every name a marker may have: ours, and seed 000's `cx-NNN-checkpoint.json.acknowledged` (read, never written). */
export function ackMarkerNames(fileName: string): [string, string] {
  return [ackMarkerName(fileName), `${fileName}${MARKER_SUFFIX}`];
}

/**
 * Whether `name` is one of the checkpoint file `fileName`'s ackMarkerNames, told without building them: SessionStart
 * asks it of each name in a session folder's listing, and two names built per checkpoint of a long-lived project
 * are young garbage enough to cost it a collection (bench/RESULTS.md).
 */
export function isAckMarkerOf(name: string, fileName: string): boolean {
  // Not a checkpoint's name (ackMarkerName leaves it as it is): as ackMarkerNames has it.
  if (!fileName.endsWith('.json')) return name === fileName || name === `${fileName}${MARKER_SUFFIX}`;
  if (!name.endsWith(MARKER_SUFFIX)) return false;
  const stem = name.length - MARKER_SUFFIX.length;
  if (stem === fileName.length) return name.startsWith(fileName); // seed 000's: the whole name, then the suffix
  return stem === fileName.length - '.json'.length && fileName.startsWith(name.slice(0, stem)); // ours: without `.json`
}

export type CheckpointFacts = {
  sequence: number;
  now: Date;
  sessionId: string;
  trigger: unknown;
  customInstructions: unknown;
  occupancy: Occupancy;
  percent: number | undefined;
  tier: Tier;
  window: { tokens: number; source: WindowSource; detail?: string | undefined };
  ceilingPct: number;
  orchestration: OrchestrationRecord;
  session: Checkpoint['session'];
};

/** Every one-line field from a hook input or a file is cut to CHECKPOINT_FIELD_CHARS: a checkpoint is bounded output. */
const field = (text: string) => (text.length > CHECKPOINT_FIELD_CHARS ? text.slice(0, CHECKPOINT_FIELD_CHARS) : text);

export function buildCheckpoint(f: CheckpointFacts): Checkpoint {
  const o = f.orchestration;
  return {
    schema: CHECKPOINT_SCHEMA,
    id: checkpointId(f.sequence),
    sequence: f.sequence,
    timestamp: f.now.toISOString(),
    sessionId: field(f.sessionId),
    trigger: {
      type: triggerOf(f.trigger),
      customInstructions:
        typeof f.customInstructions === 'string' && f.customInstructions.length > 0 ? f.customInstructions.slice(0, 4_000) : null,
    },
    context: {
      occupancy: f.occupancy.kind === 'measured' ? f.occupancy.tokens : null,
      state: f.occupancy.kind,
      percent: f.percent === undefined ? null : Math.round(f.percent * 10) / 10,
      tier: f.tier,
      window: f.window.tokens,
      windowSource: f.window.source,
      ...(f.window.detail === undefined ? {} : { windowDetail: f.window.detail.slice(0, 200) }),
      ceilingPct: f.ceilingPct,
    },
    orchestration: { ...o, path: field(o.path), ...(o.error === undefined ? {} : { error: field(o.error) }) },
    session: {
      cwd: field(f.session.cwd),
      projectDir: field(f.session.projectDir),
      gitBranch: f.session.gitBranch === null ? null : field(f.session.gitBranch),
      transcriptPath: f.session.transcriptPath === null ? null : field(f.session.transcriptPath),
    },
    acknowledged: false,
  };
}

/**
 * Read back a checkpoint leniently: anything with an id and a sequence is a
 * checkpoint; missing parts read as absent. Undefined means corrupt.
 */
export function parseCheckpoint(value: unknown): Checkpoint | undefined {
  const c = record(value);
  if (!c || typeof c.id !== 'string' || !Number.isSafeInteger(c.sequence)) return undefined;
  const trigger = record(c.trigger) ?? {};
  const context = record(c.context) ?? {};
  const orchestration = record(c.orchestration) ?? {};
  const session = record(c.session) ?? {};
  const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const string = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    schema: CHECKPOINT_SCHEMA,
    id: c.id,
    sequence: c.sequence as number,
    timestamp: string(c.timestamp) ?? '',
    sessionId: string(c.sessionId) ?? '',
    trigger: { type: triggerOf(trigger.type), customInstructions: string(trigger.customInstructions) },
    context: {
      occupancy: number(context.occupancy),
      state: context.state === 'measured' || context.state === 'unknown-since-compaction' ? context.state : 'unavailable',
      percent: number(context.percent),
      tier: parseTier(context.tier),
      window: number(context.window) ?? 0,
      windowSource: (string(context.windowSource) ?? 'assumed') as WindowSource,
      windowDetail: string(context.windowDetail) ?? undefined,
      ceilingPct: number(context.ceilingPct) ?? 0,
    },
    orchestration: {
      path: string(orchestration.path) ?? '',
      status: orchestration.status === 'loaded' || orchestration.status === 'missing' ? orchestration.status : 'unavailable',
      error: string(orchestration.error) ?? undefined,
      header: record(orchestration.header) ?? null,
      resumption: record(orchestration.resumption) ?? null,
      cut: Array.isArray(orchestration.cut) ? orchestration.cut.filter((note) => typeof note === 'string').slice(0, 21) : undefined,
    },
    session: {
      cwd: string(session.cwd) ?? '',
      projectDir: string(session.projectDir) ?? '',
      gitBranch: string(session.gitBranch),
      transcriptPath: string(session.transcriptPath),
    },
    acknowledged: c.acknowledged === true,
  };
}

export function triggerOf(value: unknown): CheckpointTrigger {
  return typeof value === 'string' && TRIGGERS.includes(value) ? (value as CheckpointTrigger) : 'unknown';
}
