/**
 * A policy file's validation, kept per text. A hook that finds a policy file (`config set` writes one) validates it
 * with zod (policy-parse.cjs), which costs a hook run ~30 % of a Node start (bench/RESULTS.md); the file rarely
 * changes between runs. So the result is kept beside the code cache, in the private state directory, with what it
 * answers: the validator's file identity, the file's path and its exact text. It is used only when all three are
 * equal (an edit of any byte, in any second, another path or a rebuilt validator validates again), so a result kept
 * is only ever the validator's own answer for this text. One file per validator and policy path, replaced when its
 * text changes; past MAX_KEPT_FILES the one kept longest ago goes (deleted projects, old installs).
 */
import { lstatSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from './join-path.js';
import { asRecord } from '../core/json-shape.js';
import { MAX_POLICY_BYTES, type ReadPolicy } from './config.js';
import { privateCacheDir } from './code-cache-write.js';
import { writeFileAtomic } from './fs-safe.js';
import { readRegularText } from './read-safe.js';

/** A kept file holds the text and its answer, each at most a policy file's size, JSON-escaped: past this it is not ours. */
const MAX_KEPT_BYTES = 4 * MAX_POLICY_BYTES;

/**
 * What `validate` answers for `text` at `path`, from the result kept in `cacheDir` (a private directory the launcher
 * checked; undefined: nothing kept) when it was kept for this validator, path and text; otherwise validated now and kept. `validator` is the file
 * `validate` runs (its size, mtime and inode are part of the key: a rebuilt or updated validator validates again).
 * Never throws what keeping fails on: the answer is then validated each run.
 */
export function keptValidation(
  cacheDir: string | undefined,
  validator: string,
  text: string,
  path: string,
  validate: () => ReadPolicy,
): ReadPolicy {
  if (cacheDir === undefined) return validate();
  let kept: { validator: string; path: string; text: string } | undefined;
  let file: string | undefined;
  try {
    const stat = statSync(validator);
    kept = { validator: `${stat.size}.${Math.trunc(stat.mtimeMs)}.${stat.ino}`, path, text };
    // By validator too: a plugin and a project install that both run hooks each keep their own, never taking turns.
    file = join(cacheDir, `${KEPT_PREFIX}${nameOf(`${validator}\n${path}`)}${KEPT_SUFFIX}`);
    const found = asRecord(JSON.parse(readRegularText(file, MAX_KEPT_BYTES) ?? 'null'));
    if (found?.validator === kept.validator && found.path === path && found.text === text && isReadPolicy(found.result))
      return found.result;
  } catch {
    // nothing kept yet, or unreadable: validated below
  }
  const result = validate();
  try {
    if (kept && file && privateCacheDir(cacheDir)) {
      writeFileAtomic(file, JSON.stringify({ ...kept, result }), 0o600);
      pruneKept(cacheDir, file);
    }
  } catch {
    // the folder cannot be made or written: validated again next run
  }
  return result;
}

const KEPT_PREFIX = 'policy.';
const KEPT_SUFFIX = '.json';
/** A kept validation's file name: ours to replace or delete, whatever else the folder holds. */
const KEPT_NAME = /^policy\.[0-9a-f]{8}\.json$/;
/** Kept validations at most: one per validator and policy path in use is a handful; the rest are of gone projects and installs. */
export const MAX_KEPT_FILES = 32;

/**
 * After `written` was kept: while more than MAX_KEPT_FILES are kept, delete the one kept longest ago (by mtime; reading
 * one never touches it, so one still in use is at worst validated once more and kept again). Only regular files of our
 * name in the private folder; `written` stays. Runs only when a validation was kept, never on a run answered from one.
 */
function pruneKept(cacheDir: string, written: string): void {
  const kept: Array<{ file: string; mtimeMs: number }> = [];
  for (const name of readdirSync(cacheDir)) {
    if (!KEPT_NAME.test(name)) continue;
    const file = join(cacheDir, name);
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (stat?.isFile() && file !== written) kept.push({ file, mtimeMs: stat.mtimeMs });
  }
  kept.sort((a, b) => a.mtimeMs - b.mtimeMs);
  for (const { file } of kept.slice(0, Math.max(0, kept.length + 1 - MAX_KEPT_FILES))) unlinkSync(file);
}

/** A file name for a validator and a path (FNV-1a, 32 bits): two that share one only take turns replacing it. */
function nameOf(path: string): string {
  let hash = 0x811c9dc5;
  for (let at = 0; at < path.length; at++) hash = Math.imul(hash ^ path.charCodeAt(at), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The shape a validation answers with (the key already says it is this text's). */
function isReadPolicy(value: unknown): value is ReadPolicy {
  const r = asRecord(value);
  if (r?.kind === 'ok') return asRecord(r.file) !== undefined;
  return r?.kind === 'invalid' && Array.isArray(r.problems) && r.problems.every((p) => typeof p === 'string');
}
