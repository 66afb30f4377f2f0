/**
 * What `checkpoints clean` removes from one session folder, decided over plain facts (names, file kinds,
 * owners, times): only files of ours by name, a checkpoint together with its markers and kept summary,
 * and an unfinished write only once no writer can still be at it.
 */

/** Our files, by name: what each is and which checkpoint it belongs to (temp files belong to none). */
const OURS: ReadonlyArray<[RegExp, OurFile['kind']]> = [
  [/^cx-(\d{3,9})-checkpoint\.json$/, 'checkpoint'],
  [/^cx-(\d{3,9})-checkpoint\.acknowledged$/, 'marker'],
  // seed 000's name for the marker, which we read as acknowledged
  [/^cx-(\d{3,9})-checkpoint\.json\.acknowledged$/, 'marker'],
  [/^cx-(\d{3,9})-summary\.json$/, 'summary'],
  [/^cx-(\d{3,9})-summary\.acknowledged$/, 'marker'],
  // writeNewCheckpoint's temp file, then writeFileAtomic's for a kept summary
  [/^\.cx-\d+-[0-9a-z]+\.tmp$/, 'temp'],
  [/^\.cx-\d{3,9}-summary\.json\.\d+\.[0-9a-z]+\.tmp$/, 'temp'],
];

/** A writer holds its temp file for milliseconds; one this old was left by a process that died. */
export const STALE_TEMP_MS = 60 * 60 * 1000;

export type OurFile = { kind: 'checkpoint' | 'marker' | 'summary' | 'temp'; sequence: number | undefined };

/** What a file of ours by name is, or undefined for any other name (never touched). */
export function ourFile(name: string): OurFile | undefined {
  for (const [pattern, kind] of OURS) {
    const match = pattern.exec(name);
    if (match) return { kind, sequence: match[1] === undefined ? undefined : Number(match[1]) };
  }
  return undefined;
}

/** One name in a session folder, as lstat saw it. `regular`: a plain file (not a link, FIFO or folder); `mine`: our uid owns it. */
export type FolderFile = { name: string; regular: boolean; mine: boolean; mtimeMs: number };

/**
 * Which files go. `cutoff`: only what was written before this time (undefined: everything); `writtenAt`:
 * a checkpoint's own timestamp when it has a readable one (its file's time otherwise).
 */
export type CleanRequest = { cutoff: number | undefined; now: number; writtenAt: (sequence: number) => number | undefined };

/** `sequence` undefined: an unfinished write. `names` go together or not at all. */
export type CleanGroup = { sequence: number | undefined; names: string[]; hasCheckpoint: boolean };

export type SessionCleanPlan = { remove: CleanGroup[]; leftAlone: Array<{ name: string; why: 'not-a-file' | 'not-mine' }> };

export function planSessionClean(files: readonly FolderFile[], request: CleanRequest): SessionCleanPlan {
  const groups = new Map<number, FolderFile[]>();
  const plan: SessionCleanPlan = { remove: [], leftAlone: [] };
  for (const file of files) {
    const ours = ourFile(file.name);
    if (!ours) continue;
    if (ours.sequence === undefined) {
      if (isStaleTemp(file, request)) plan.remove.push({ sequence: undefined, names: [file.name], hasCheckpoint: false });
      continue;
    }
    groups.set(ours.sequence, [...(groups.get(ours.sequence) ?? []), file]);
  }
  for (const [sequence, group] of [...groups].sort(([a], [b]) => a - b)) {
    const checkpoint = group.find((file) => ourFile(file.name)?.kind === 'checkpoint');
    if (request.cutoff !== undefined && writtenAt(group, checkpoint && sequence, request) >= request.cutoff) continue;
    const foreign = group.filter((file) => !file.regular || !file.mine);
    if (foreign.length > 0) {
      for (const file of foreign) plan.leftAlone.push({ name: file.name, why: file.regular ? 'not-mine' : 'not-a-file' });
      continue;
    }
    plan.remove.push({ sequence, names: group.map((file) => file.name).sort(), hasCheckpoint: checkpoint !== undefined });
  }
  return plan;
}

/** The checkpoint's own time (read only for a plain file of ours); for markers or a summary without one, their newest file's. */
function writtenAt(group: readonly FolderFile[], sequence: number | undefined, request: CleanRequest): number {
  const own = group.some((file) => file.regular && ourFile(file.name)?.kind === 'checkpoint');
  return (sequence !== undefined && own ? request.writtenAt(sequence) : undefined) ?? Math.max(...group.map((file) => file.mtimeMs));
}

function isStaleTemp(file: FolderFile, request: CleanRequest): boolean {
  if (!file.regular || !file.mine || file.mtimeMs > request.now - STALE_TEMP_MS) return false;
  return request.cutoff === undefined || file.mtimeMs < request.cutoff;
}
