/**
 * The session's model as Claude Code names it in the transcript's `model` attachment, whose id keeps a
 * `[1m]` suffix that the assistant records' `message.model` never carries (CLAUDE-CODE-FACTS.md,
 * 2.1.331). The attachment is written at the session's start, after a model switch and after a
 * compaction, so the newest one counts; it can lie far back in a long transcript, so what was found is
 * kept per session and later calls read only what was appended since.
 */
import { closeSync } from 'node:fs';
import { join } from '../io/join-path.js';
import { classifyModelAttachment, MODEL_ATTACHMENT_MARK, MODEL_ATTACHMENT_TYPE } from '../core/model-attachment.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import { type OpenFile, openRegularFile } from '../io/read-safe.js';
import { readPrivateJson, sanitizeId, sessionStateDir } from '../io/state.js';
import { seekBackwards, type Seeker } from '../io/transcript.js';

const FILE = 'model.json';
/** Re-record how far the transcript was searched only after this much was appended: a write per call would cost more than the search. */
const RECORD_AFTER_BYTES = 4 * 1024 * 1024;
/** The record of the search may have been taken mid-line: look a little before it. */
const OVERLAP_BYTES = 64 * 1024;

/** Built on first use: most runs know the model from the measured turn and never search for it (needsAttachment). */
let seeker: Seeker<string> | undefined;
const modelSeeker = (): Seeker<string> =>
  (seeker ??= {
    marks: [Buffer.from(MODEL_ATTACHMENT_MARK)],
    types: [Buffer.from(MODEL_ATTACHMENT_TYPE)],
    classify: classifyModelAttachment,
  });

type Kept = { modelId: string | null; searchedTo: number };

export type SessionModelPlace = {
  stateDir: string;
  key: string;
  transcript: string;
  maxScanBytes: number;
  timeUp?: (() => boolean) | undefined;
  /** False: look, but keep nothing (commands that only report). */
  persist?: boolean | undefined;
};

/** The newest model attachment's id, or undefined when none was found within the scan cap. Never throws. */
export function readSessionModelId(place: SessionModelPlace, debug: (line: string) => void): string | undefined {
  let file: OpenFile;
  try {
    file = openRegularFile(place.transcript);
  } catch {
    return undefined;
  }
  try {
    const fileSize = file.size;
    const kept = readKept(place);
    const options = { maxScanBytes: place.maxScanBytes, timeUp: place.timeUp };
    // No record yet, or one about a longer file (the transcript was replaced): search from the end.
    if (!kept || kept.searchedTo > fileSize) {
      const scan = seekBackwards(file, modelSeeker(), options);
      // A scan the time budget cut short settles nothing: the next hook searches again.
      if (scan.evidence !== undefined || !scan.timedOut) keep(place, { modelId: scan.evidence ?? null, searchedTo: scan.fileSize }, debug);
      return scan.evidence;
    }
    const since = Math.min(options.maxScanBytes, OVERLAP_BYTES + fileSize - kept.searchedTo);
    const appended = seekBackwards(file, modelSeeker(), { ...options, maxScanBytes: since });
    const modelId = appended.evidence ?? kept.modelId ?? undefined;
    if (appended.evidence !== undefined && appended.evidence !== kept.modelId)
      keep(place, { modelId: appended.evidence, searchedTo: appended.fileSize }, debug);
    else if (!appended.timedOut && appended.fileSize - kept.searchedTo > RECORD_AFTER_BYTES)
      keep(place, { modelId: modelId ?? null, searchedTo: appended.fileSize }, debug);
    return modelId;
  } catch (error) {
    debug(`model attachment not read (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  } finally {
    closeSync(file.fd);
  }
}

function readKept(place: SessionModelPlace): Kept | undefined {
  const value = readPrivateJson(join(place.stateDir, 'sessions', sanitizeId(place.key)), FILE) as Partial<Kept> | undefined;
  if (!value || !Number.isSafeInteger(value.searchedTo) || (value.modelId !== null && typeof value.modelId !== 'string')) return undefined;
  return { modelId: value.modelId, searchedTo: value.searchedTo as number };
}

function keep(place: SessionModelPlace, kept: Kept, debug: (line: string) => void): void {
  if (place.persist === false) return;
  try {
    writeFileAtomic(join(sessionStateDir(place.stateDir, place.key), FILE), `${JSON.stringify(kept)}\n`);
  } catch (error) {
    debug(`model attachment not kept (${error instanceof Error ? error.message : String(error)})`);
  }
}
