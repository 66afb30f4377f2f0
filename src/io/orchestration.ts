/** Reads the orchestration file's `resumption:` (and `header:`) sections for checkpoints and staleness checks. */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import type { OrchestrationRecord } from '../core/checkpoint.js';
import { readRegularText, UnsafeFileError } from './read-safe.js';
import type { YamlResult } from './yaml-parse.js';
import { asRecord } from '../core/json-shape.js';
import { capJson } from '../core/json-cap.js';
import { CHECKPOINT_ORCHESTRATION_LIMITS } from '../core/limits.js';

export type YamlParser = (text: string) => YamlResult;

/** Larger than any real orchestration file; bounds what a hook reads and parses. */
const MAX_ORCHESTRATION_BYTES = 2 * 1024 * 1024;

export function orchestrationPath(projectDir: string, configured: string): string {
  return isAbsolute(configured) ? configured : resolve(projectDir, configured);
}

/** `yamlError`: the parser's message when the file is not YAML (kept apart so nobody matches it out of `error`). */
export type OrchestrationRead = OrchestrationRecord & { document: unknown; yamlError?: string | undefined };

/**
 * Where `path` really is, when that is outside `projectDir` (a committed symlink, `../..`, an absolute path):
 * what a hook reads into a checkpoint and the model's context must be the project's own file.
 */
export function outsideProject(path: string, projectDir: string): string | undefined {
  let real: string;
  try {
    // Most projects have no such file: asked without an exception first (a thrown fs error costs a hook its construction).
    if (!lstatSync(path, { throwIfNoEntry: false })) return undefined;
    real = realpathSync(path);
  } catch {
    return undefined; // missing (or unreachable): reading it finds nothing either
  }
  let root: string;
  try {
    root = realpathSync(projectDir);
  } catch {
    root = resolve(projectDir);
  }
  return real === root || real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`) ? undefined : real;
}

/**
 * Never throws: a missing file is `missing`, anything unusable is `unavailable` with the reason. A file that
 * resolves outside `projectDir` is not read.
 */
export function readOrchestration(path: string, parseYaml: YamlParser, projectDir: string): OrchestrationRead {
  const base = { path, header: null, resumption: null, document: undefined };
  const outside = outsideProject(path, projectDir);
  if (outside !== undefined) return { ...base, status: 'unavailable', error: 'resolves outside the project; not read' };
  let text: string | undefined;
  try {
    text = readRegularText(path, MAX_ORCHESTRATION_BYTES);
    if (text === undefined) return { ...base, status: 'missing' };
  } catch (error) {
    if (error instanceof UnsafeFileError)
      return {
        ...base,
        status: 'unavailable',
        error: error.code === 'EFBIG' ? `larger than ${MAX_ORCHESTRATION_BYTES} bytes` : 'not a regular file',
      };
    return { ...base, status: 'unavailable', error: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  const parsed = parseYaml(text);
  if (!parsed.ok) return { ...base, status: 'unavailable', error: `malformed YAML: ${parsed.error}`, yamlError: parsed.error };
  const document = parsed.value;
  const root = asRecord(document);
  if (!root) return { ...base, document, status: 'unavailable', error: 'the document is not a mapping' };
  const resumption = asRecord(root.resumption);
  // Plain JSON within the checkpoint's caps: aliases can make a small file a huge tree, and a
  // checkpoint is output that must stay small enough to be read back.
  const capped = capJson(
    { header: asRecord(root.header) ?? null, resumption: resumption ?? null },
    CHECKPOINT_ORCHESTRATION_LIMITS,
    'orchestration',
  );
  const sections = asRecord(capped.value) ?? {};
  return {
    path,
    document,
    status: 'loaded',
    error: resumption ? undefined : root.resumption === undefined ? 'no resumption: section' : 'resumption: is not a mapping',
    header: asRecord(sections.header) ?? null,
    resumption: asRecord(sections.resumption) ?? null,
    ...(capped.cuts.length ? { cut: describeCuts(capped.cuts) } : {}),
  };
}

/** Notes kept in a checkpoint about what was cut; beyond these, a count. */
const MAX_CUT_NOTES = 20;

function describeCuts(cuts: string[]): string[] {
  if (cuts.length <= MAX_CUT_NOTES) return cuts;
  return [...cuts.slice(0, MAX_CUT_NOTES), `(${cuts.length - MAX_CUT_NOTES} more cuts)`];
}
