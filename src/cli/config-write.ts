/**
 * `config set KEY VALUE` and `config unset KEY`: one policy file (the user's, or the project's) changed
 * atomically and validated as the loader validates it, then what is in force. Other keys, their order and
 * the file's mode are kept; a symlinked file, or a project `.claude` leading out of the project, is refused.
 */
import { chmodSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { findJsonLoss } from '../core/json-lossless.js';
import { judgeLayer } from '../core/policy-rules.js';
import type { PolicyValues } from '../core/policy.js';
import { sanitizeText } from '../core/sanitize.js';
import { MAX_POLICY_BYTES, policyFilePaths } from '../io/config.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import { parsePolicyText } from '../io/policy-parse.js';
import { readRegularText } from '../io/read-safe.js';
import {
  applyEdit,
  coerceEditValue,
  editableKeys,
  isObject,
  resolveEditKey,
  valueAt,
  type EditKey,
  type FileObject,
} from './config-edit.js';
import { configRows, formatRow, formatValue, jsonRow, rowsOf, type Row } from './config-rows.js';
import { configContextOf, loadUncheckedConfig, projectDirOf } from './project.js';
import type { CliIO } from './command.js';
import { CliError, describeFsError, UsageError } from './errors.js';
import { toJsonOutput } from './output.js';
import { cliMessage } from './messages.js';

export type WriteScope = 'user' | 'project';

/** `mode`: the existing file's, kept; undefined for a new file (0644, narrowed by the umask). */
type PolicyFileText = { path: string; value: FileObject; indent: string | number; mode: number | undefined };

type Change = { io: CliIO; scope: WriteScope; file: PolicyFileText; target: EditKey; value: unknown; json: boolean };

export function runSet(io: CliIO, scope: WriteScope, name: string, raw: string, json: boolean, usage: string): number {
  const target = resolveEditKey(name, false);
  if (!target) throw new UsageError(cliMessage('config.unknown-edit-key', { key: name, keys: editableKeys() }), usage);
  const coerced = coerceEditValue(target, raw);
  if ('why' in coerced) throw new UsageError(cliMessage('config.bad-value', { key: name, value: raw, why: coerced.why }), usage);
  const file = readForEdit(io, scope);
  // The layer rules the loader applies (a project file cannot move the state directory): refused here, in their words.
  const [top, sub] = target.path;
  const problem = judgeLayer(scope, { [top]: sub === undefined ? coerced.value : { [sub]: coerced.value } } as PolicyValues)[0];
  if (problem) throw new CliError(cliMessage('config.layer-refused', { path: file.path, key: name, rule: problem.message }));
  return change({ io, scope, file, target, value: coerced.value, json });
}

export function runUnset(io: CliIO, scope: WriteScope, name: string, json: boolean, usage: string): number {
  const target = resolveEditKey(name, true);
  if (!target) throw new UsageError(cliMessage('config.unknown-edit-key', { key: name, keys: editableKeys() }), usage);
  return change({ io, scope, file: readForEdit(io, scope), target, value: undefined, json });
}

function change(c: Change): number {
  const before = valueAt(c.file.value, c.target);
  const changed = JSON.stringify(before) !== JSON.stringify(c.value);
  if (changed) {
    const next = applyEdit(c.file.value, c.target, c.value);
    const text = `${JSON.stringify(next, null, c.file.indent)}\n`;
    const parsed = parsePolicyText(text, c.file.path);
    if (parsed.kind === 'invalid')
      throw new CliError([cliMessage('config.would-be-invalid', { path: c.file.path }), ...parsed.problems].join('\n'));
    write(c.file, text);
  }
  report(c, before, changed);
  return 0;
}

function report(c: Change, before: unknown, changed: boolean): void {
  const { io, target, file, scope } = c;
  const config = loadUncheckedConfig(io);
  const rows = target.kind === 'preset' ? presetRows(configRows(config), file.path) : rowsOf(configRows(config), target.key);
  const inForce: Row[] = rows.length > 0 ? rows : [{ key: target.key, value: null, source: { layer: 'default' } }];
  for (const line of [...config.problems, ...config.warnings]) io.err(`${cliMessage('warning', { warning: line })}\n`);
  if (c.json) {
    const entry = { action: c.value === undefined ? 'unset' : 'set', key: target.key, scope, path: file.path, changed };
    io.out(toJsonOutput({ ...entry, before: before ?? null, after: c.value ?? null, inForce: inForce.map(jsonRow) }));
    return;
  }
  const shown = (value: unknown) => sanitizeText(formatValue(value));
  const at = { key: target.key, path: file.path, scope };
  const headline =
    c.value === undefined
      ? changed
        ? cliMessage('config.unset', { ...at, before: shown(before) })
        : cliMessage('config.unset-absent', at)
      : changed
        ? cliMessage('config.set', { ...at, value: shown(c.value), before: before === undefined ? undefined : shown(before) })
        : cliMessage('config.set-unchanged', { ...at, value: shown(c.value) });
  io.out(`${headline}\n${inForce.map((row) => `${cliMessage('config.in-force', { row: formatRow(row) })}\n`).join('')}`);
}

/** What the preset a file extends supplies (the rows its keys did not override), as `config show` lists them. */
function presetRows(rows: readonly Row[], path: string): Row[] {
  return rows.filter((row) => row.source.layer === 'preset' && row.source.detail?.endsWith(`, extended by ${path}`));
}

/** The file as an object to edit; every reason it may not be rewritten is a one-line CliError. */
function readForEdit(io: CliIO, scope: WriteScope): PolicyFileText {
  const path = policyFilePaths(configContextOf(io)).find((file) => file.role === scope)!.path;
  if (scope === 'project') refuseLeavingProject(projectDirOf(io), dirname(path));
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return { path, value: {}, indent: 2, mode: undefined };
  if (stat.isSymbolicLink()) throw new CliError(cliMessage('config.file-symlink', { path }));
  if (!stat.isFile()) throw new CliError(cliMessage('config.file-not-file', { path }));
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw new CliError(cliMessage('config.file-not-ours', { path, uid: stat.uid }));
  let text: string;
  try {
    text = readRegularText(path, MAX_POLICY_BYTES, { noFollow: true }) ?? '';
  } catch (error) {
    throw new CliError(cliMessage('file-unreadable', { path, code: (error as NodeJS.ErrnoException).code ?? 'error' }));
  }
  const mode = stat.mode & 0o777;
  if (text.trim() === '') return { path, value: {}, indent: 2, mode };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(cliMessage('config.file-not-json', { path, reason: (error as Error).message }));
  }
  if (!isObject(value)) throw new CliError(cliMessage('config.file-not-object', { path }));
  const loss = findJsonLoss(text);
  if (loss) throw new CliError(cliMessage('config.file-lossy', { path, loss }));
  const indent = /^\{\s*\n([ \t]+)"/.exec(text)?.[1];
  return { path, value, indent: indent === undefined ? 2 : indent.includes('\t') ? '\t' : indent.length, mode };
}

/** A project's `.claude` that leads out of the project (a cloned repository can commit `.claude` -> ~/.claude). */
function refuseLeavingProject(projectDir: string, claudeDir: string): void {
  const stat = lstatSync(claudeDir, { throwIfNoEntry: false });
  if (!stat?.isSymbolicLink()) return;
  let root: string;
  let real: string;
  try {
    root = realpathSync(projectDir);
    real = realpathSync(claudeDir);
  } catch {
    throw new CliError(cliMessage('config.leaves-project', { path: claudeDir, real: '(nowhere: a broken link)' }));
  }
  if (real !== root && !real.startsWith(root + sep)) throw new CliError(cliMessage('config.leaves-project', { path: claudeDir, real }));
}

/** Temp file, fsync, rename, in the file's folder, with the mode the file had (the umask would only narrow it). */
function write(file: PolicyFileText, text: string): void {
  try {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileAtomic(file.path, text, file.mode ?? 0o644);
    if (file.mode !== undefined) chmodSync(file.path, file.mode);
  } catch (error) {
    throw new CliError(cliMessage('config.cannot-write', { path: file.path, reason: describeFsError(error) }));
  }
}
