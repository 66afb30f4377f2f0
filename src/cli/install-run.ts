/** What install and uninstall do on disk, given a target (install.ts parses the command line). */
import { lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { join } from '../io/join-path.js';
import { AUTOCOMPACT_OUTPUT_RESERVE, AUTOCOMPACT_PCT_ENV } from '../core/autocompact.js';
import { ENV } from '../core/env-names.js';
import {
  installedSkillText,
  planInstall,
  planUninstall,
  SettingsShapeError,
  type EnvChange,
  type HookRuntime,
  type Plan,
} from '../core/install-plan.js';
import { formatTokens } from '../core/guard-text.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import { OUR_SKILL } from '../io/recovery-skill.js';
import { loadUncheckedConfig, loadUserScopeConfig } from './project.js';
import { bundleDir } from '../io/bundle-dir.js';
import { RETIRED_RUNTIME_FILES, RUNTIME_FILES, runtimeFor, type InstallRecord, type Target } from './install-target.js';
import {
  assertInsideProject,
  hashOfFile,
  readSettings,
  removeIfEmpty,
  removeIfOurs,
  sameFile,
  sha256,
  writeSettings,
} from './install-files.js';
import type { CliIO } from './command.js';
import { CliError } from './errors.js';
import { toJsonOutput } from './output.js';
import { cliMessage } from './messages.js';
import { asRecord } from '../core/json-shape.js';

declare const PACKAGE_VERSION: string;

type Options = { dryRun: boolean; json: boolean };
export type InstallOptions = Options & {
  strict: boolean;
  window: number | undefined;
  statusLine: boolean;
  /** What the hook commands run (`--runtime`). */
  hookRuntime: HookRuntime;
};

/** The default model's window (CLAUDE-CODE-FACTS.md), assumed for the compaction point when none is stated. */
const ASSUMED_WINDOW = 1_000_000;

export function runInstall(io: CliIO, t: Target, options: InstallOptions): number {
  const runtime = runtimeFor(t);
  const skillPath = join(dirname(t.settingsPath), 'skills', OUR_SKILL, 'SKILL.md');
  guardPaths(t, [dirname(t.settingsPath), t.recordPath, skillPath, ...(runtime.copy ? [runtime.realDir] : [])]);
  const current = readSettings(t.settingsPath);
  const previous = readRecord(t.recordPath);
  const wanted = wantedEnv(io, t.scope, options, current.value, previous?.env ?? []);
  const plan = planOrExplain(t.settingsPath, () =>
    planInstall(current.value, runtime.commandDir, wanted.env, {
      statusLine: options.statusLine,
      runtime: options.hookRuntime,
      owned: previous?.env ?? [],
      ownedEnvObject: previous?.created?.envObject === true,
    }),
  );
  const staleRuntime = runtime.copy ? RUNTIME_FILES.filter((file) => !sameFile(join(bundleDir(), file), join(runtime.realDir, file))) : [];
  const skill = planSkill(skillPath, relative(dirname(skillPath), runtime.realDir).split(sep).join('/'), previous?.skillHash);
  const changed = plan.actions.length > 0 || staleRuntime.length > 0 || skill.action === 'write';
  let backup: string | undefined;
  if (changed && !options.dryRun) {
    if (staleRuntime.length > 0) copyRuntime(runtime.realDir);
    if (runtime.copy)
      for (const file of RETIRED_RUNTIME_FILES)
        if (provenOurs(join(runtime.realDir, file), file, previous)) removeIfOurs(join(runtime.realDir, file), () => true);
    if (skill.action === 'write') {
      mkdirSync(dirname(skillPath), { recursive: true });
      writeFileAtomic(skillPath, skill.text, 0o644);
    }
    if (plan.actions.length > 0) backup = writeSettings(t.settingsPath, current, plan.settings);
    const record: InstallRecord = {
      version: PACKAGE_VERSION,
      settingsPath: t.settingsPath,
      runtimeDir: runtime.copy ? runtime.realDir : null,
      runtimeCopied: runtime.copy || previous?.runtimeCopied === true,
      runtimeHashes: runtime.copy
        ? Object.fromEntries([...RUNTIME_FILES, 'VERSION'].map((file) => [file, hashOfFile(join(runtime.realDir, file)) ?? '']))
        : {},
      skillHash: skill.action === 'foreign' ? undefined : sha256(skill.text),
      env: plan.env,
      created: {
        ...(previous?.created ?? plan.created),
        envObject: previous?.created?.envObject === true || plan.created.envObject, // a later --strict may be what created "env"
        statusLine: previous?.created?.statusLine ?? plan.created.statusLine,
      },
      installedAt: new Date().toISOString(),
    };
    mkdirSync(dirname(t.recordPath), { recursive: true });
    writeFileAtomic(t.recordPath, `${JSON.stringify(record, null, 2)}\n`, 0o644);
  }
  reportInstall(io, options, {
    settingsPath: t.settingsPath,
    scope: t.scope,
    changed,
    dryRun: options.dryRun,
    actions: plan.actions,
    runtime: { dir: runtime.realDir, updated: staleRuntime },
    hookRuntime: options.hookRuntime,
    skill: { path: skillPath, action: skill.action },
    autocompact: wanted.autocompact ?? null,
    backup: backup ?? null,
  });
  return 0;
}

export function runUninstall(io: CliIO, t: Target, options: Options): number {
  const runtime = runtimeFor(t); // from the scope, never from the record: a project's record is a committed file
  const skillPath = join(dirname(t.settingsPath), 'skills', OUR_SKILL, 'SKILL.md');
  guardPaths(t, [dirname(t.settingsPath), t.recordPath, skillPath, ...(runtime.copy ? [runtime.realDir] : [])]);
  const current = readSettings(t.settingsPath);
  const record = readRecord(t.recordPath);
  const plan: Plan =
    current.value === undefined
      ? { settings: {}, actions: [], env: [], created: { hooksObject: false, events: [], envObject: false } }
      : planOrExplain(t.settingsPath, () => planUninstall(current.value, { env: record?.env ?? [], created: record?.created }));
  const runtimeFiles = runtime.copy
    ? [...RUNTIME_FILES, ...RETIRED_RUNTIME_FILES, 'VERSION'].filter((file) => provenOurs(join(runtime.realDir, file), file, record))
    : [];
  const skillHash = hashOfFile(skillPath);
  // ours: what the record says install wrote, or exactly what this version writes (a lost record proves nothing else)
  const skillOurs =
    skillHash !== undefined &&
    (skillHash === record?.skillHash ||
      skillHash === sha256(skillText(relative(dirname(skillPath), runtime.realDir).split(sep).join('/'))));
  const changed = plan.actions.length > 0 || runtimeFiles.length > 0 || skillOurs || record !== undefined;
  let backup: string | undefined;
  if (changed && !options.dryRun) {
    if (plan.actions.length > 0) backup = writeSettings(t.settingsPath, current, plan.settings);
    for (const file of runtimeFiles) removeIfOurs(join(runtime.realDir, file), () => true);
    if (runtime.copy) removeIfEmpty(runtime.realDir);
    if (skillOurs) {
      removeIfOurs(skillPath, (hash) => hash === skillHash);
      removeIfEmpty(dirname(skillPath));
      removeIfEmpty(dirname(dirname(skillPath)));
    }
    removeIfOurs(t.recordPath, () => true);
    removeIfEmpty(dirname(t.recordPath));
  }
  const kept = runtime.copy
    ? [...RUNTIME_FILES, 'VERSION'].filter((file) => !runtimeFiles.includes(file) && hashOfFile(join(runtime.realDir, file)) !== undefined)
    : [];
  const result = {
    settingsPath: t.settingsPath,
    scope: t.scope,
    changed,
    dryRun: options.dryRun,
    actions: plan.actions,
    runtimeRemoved: runtimeFiles,
    runtimeKept: kept,
    skillRemoved: skillOurs,
    backup: backup ?? null,
  };
  if (options.json) io.out(toJsonOutput(result));
  else {
    const where = { path: t.settingsPath, scope: t.scope };
    io.out(
      `${changed ? cliMessage('uninstall.changed', { ...where, dryRun: options.dryRun }) : cliMessage('uninstall.unchanged', where)}\n`,
    );
    for (const action of plan.actions) io.out(`  ${action}\n`);
    if (runtimeFiles.length > 0)
      io.out(
        `  ${cliMessage('uninstall.runtime-removed', { dryRun: options.dryRun, files: runtimeFiles.join(', '), dir: runtime.realDir })}\n`,
      );
    if (kept.length > 0) io.out(`  ${cliMessage('uninstall.runtime-kept', { files: kept.join(', '), dir: runtime.realDir })}\n`);
    if (skillOurs) io.out(`  ${cliMessage('uninstall.skill-removed', { dryRun: options.dryRun, path: skillPath })}\n`);
    else if (hashOfFile(skillPath) !== undefined) io.out(`  ${cliMessage('uninstall.skill-kept', { path: skillPath })}\n`);
    if (backup) io.out(`  ${cliMessage('install.backup', { path: backup })}\n`);
  }
  return 0;
}

type InstallResult = {
  settingsPath: string;
  scope: string;
  changed: boolean;
  dryRun: boolean;
  actions: string[];
  runtime: { dir: string; updated: string[] };
  hookRuntime: HookRuntime;
  skill: { path: string; action: SkillPlan['action'] };
  autocompact: { why: string } | null;
  backup: string | null;
};

function reportInstall(io: CliIO, options: Options, result: InstallResult): void {
  if (options.json) {
    io.out(toJsonOutput(result));
    return;
  }
  const where = { path: result.settingsPath, scope: result.scope };
  io.out(
    `${result.changed ? cliMessage('install.changed', { ...where, dryRun: options.dryRun }) : cliMessage('install.unchanged', where)}\n`,
  );
  for (const action of result.actions) io.out(`  ${action}\n`);
  if (result.runtime.updated.length > 0)
    io.out(
      `  ${cliMessage('install.runtime-copied', { dryRun: options.dryRun, files: result.runtime.updated.join(', '), dir: result.runtime.dir })}\n`,
    );
  io.out(`  ${cliMessage(result.hookRuntime === 'node' ? 'install.runtime-node' : 'install.runtime-auto')}\n`);
  if (result.skill.action === 'write')
    io.out(`  ${cliMessage('install.skill-written', { dryRun: options.dryRun, skill: OUR_SKILL, path: result.skill.path })}\n`);
  if (result.skill.action === 'foreign')
    io.out(`  ${cliMessage('install.skill-foreign', { path: result.skill.path, skill: OUR_SKILL })}\n`);
  if (result.autocompact) io.out(`  ${result.autocompact.why}\n`);
  if (result.backup) io.out(`  ${cliMessage('install.backup', { path: result.backup })}\n`);
}

/** Project scopes write only inside the project; no scope writes through a symlinked settings file (readSettings). */
function guardPaths(t: Target, paths: string[]): void {
  if (t.scope === 'user') return;
  for (const path of paths) if (!relative(t.projectDir, path).startsWith('..')) assertInsideProject(t.projectDir, path);
}

type WantedEnv = {
  env: Record<string, string>;
  autocompact?: { pct: number; window: number; windowStated: boolean; ceilingPct: number; why: string } | undefined;
};

/**
 * The env values the flags ask for. Strict also sets Claude Code's own
 * compaction point just above the ceiling: the override is a percent of the
 * effective window (window minus the output reserve, CLAUDE-CODE-FACTS.md).
 */
function wantedEnv(io: CliIO, scope: Target['scope'], options: InstallOptions, settings: unknown, owned: readonly EnvChange[]): WantedEnv {
  const env: Record<string, string> = {};
  if (options.window !== undefined) env[ENV.window] = String(options.window);
  if (!options.strict) return { env };
  env[ENV.strict] = 'on';
  // What goes into the user's scope applies to every project: it is computed from the user's scope alone,
  // never from the clone install happens to run in (its policy or settings).
  const policy = (scope === 'user' ? loadUserScopeConfig(io) : loadUncheckedConfig(io)).policy;
  const window = options.window ?? policy.window ?? ASSUMED_WINDOW;
  const effective = window > 2 * AUTOCOMPACT_OUTPUT_RESERVE ? window - AUTOCOMPACT_OUTPUT_RESERVE : window;
  const pct = Math.min(100, Math.ceil((policy.ceilingPct * window) / effective));
  const current = envOf(settings)[AUTOCOMPACT_PCT_ENV];
  const ours = owned.some((change) => change.key === AUTOCOMPACT_PCT_ENV && change.value === current);
  const theirs = ours ? Number.NaN : Number(current);
  const keepTheirs = Number.isFinite(theirs) && theirs > 0 && theirs < pct; // a lower point of the user's own already compacts in time
  if (!keepTheirs) env[AUTOCOMPACT_PCT_ENV] = String(pct);
  const stated = options.window !== undefined || policy.window !== undefined;
  const point = keepTheirs ? cliMessage('install.autocompact-kept', { pct: theirs }) : cliMessage('install.autocompact-set', { pct });
  const why = cliMessage('install.autocompact-why', {
    point,
    effective: formatTokens(effective),
    ceilingPct: policy.ceilingPct,
    atCeiling: formatTokens((policy.ceilingPct * window) / 100),
    window: formatTokens(window),
    stated,
  });
  return { env, autocompact: { pct: keepTheirs ? theirs : pct, window, windowStated: stated, ceilingPct: policy.ceilingPct, why } };
}

function envOf(settings: unknown): Record<string, unknown> {
  return asRecord(asRecord(settings)?.env) ?? {};
}

type SkillPlan = { action: 'write' | 'same' | 'foreign'; text: string };

/** Ours to write when absent, when identical, or when it is still exactly what an earlier install wrote. */
function planSkill(path: string, runtimeFromSkill: string, earlierHash: string | undefined): SkillPlan {
  const text = skillText(runtimeFromSkill);
  const existing = hashOfFile(path);
  let present = existing !== undefined;
  try {
    present = present || lstatSync(path) !== undefined;
  } catch {
    // absent
  }
  if (!present) return { action: 'write', text };
  if (existing === sha256(text)) return { action: 'same', text };
  return existing !== undefined && existing === earlierHash ? { action: 'write', text } : { action: 'foreign', text };
}

function skillText(runtimeFromSkill: string): string {
  return installedSkillText(readFileSync(join(bundleDir(), '..', 'skills', OUR_SKILL, 'SKILL.md'), 'utf8'), runtimeFromSkill);
}

/** A runtime file install wrote: its content is this package's, or what the record says install wrote there. */
function provenOurs(path: string, file: string, record: InstallRecord | undefined): boolean {
  const hash = hashOfFile(path);
  if (hash === undefined) return false;
  const expected = file === 'VERSION' ? sha256(`${PACKAGE_VERSION}\n`) : hashOfFile(join(bundleDir(), file));
  if (hash === expected) return true;
  return record?.runtimeHashes?.[file] === hash;
}

function planOrExplain(path: string, plan: () => Plan): Plan {
  try {
    return plan();
  } catch (error) {
    if (error instanceof SettingsShapeError) throw new CliError(cliMessage('install.settings-shape', { path, problem: error.message }));
    throw error;
  }
}

function copyRuntime(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const file of RUNTIME_FILES) writeFileAtomic(join(dir, file), readFileSync(join(bundleDir(), file)), 0o644);
  writeFileAtomic(join(dir, 'VERSION'), `${PACKAGE_VERSION}\n`, 0o644);
}

function readRecord(path: string): InstallRecord | undefined {
  try {
    if (!lstatSync(path).isFile() || lstatSync(path).size > 1024 * 1024) return undefined;
    const record = JSON.parse(readFileSync(path, 'utf8')) as InstallRecord;
    return typeof record === 'object' && record !== null && Array.isArray(record.env) ? record : undefined;
  } catch {
    return undefined;
  }
}
