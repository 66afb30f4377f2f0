/** Finds, reads and validates the policy layers; the merge itself is core (policy.ts). */
import { isAbsolute, resolve } from 'node:path';
import { join } from './join-path.js';
import { ENV } from '../core/env-names.js';
import { readRegularText } from './read-safe.js';
import { judgeLayer } from '../core/policy-rules.js';
import {
  readEnvLayer,
  resolvePolicy,
  type Layer,
  type LayerName,
  type PolicyFile,
  type PresetName,
  type ResolvedPolicy,
} from '../core/policy.js';

/**
 * A preset's file (policies/<name>.json), shipped inside the bundle so that it resolves wherever the package is
 * installed, and built only when a policy names it: a JSON import builds all four at every hook's load (~80 K
 * instructions of a run on Node 26, measured).
 */
export function presetFile(name: PresetName): unknown {
  switch (name) {
    case 'default':
      return require('../../policies/default.json');
    case 'strict-ci':
      return require('../../policies/strict-ci.json');
    case 'large-window':
      return require('../../policies/large-window.json');
    case 'strict-skills':
      return require('../../policies/strict-skills.json');
  }
}

export type ConfigContext = {
  env: Readonly<Record<string, string | undefined>>;
  /** CLAUDE_PROJECT_DIR, else the hook input's cwd, else the process cwd. */
  projectDir: string;
  home: string;
  /** Variables that came from a Claude Code settings file's `env`, with its label; the rest are the process's own. */
  envOrigins?: Readonly<Record<string, string>> | undefined;
  /** Only the user's own layers: no project policy file, and a policy file the environment names only by an absolute path. */
  userScopeOnly?: boolean | undefined;
};

export type FileRole = 'user' | 'project' | 'policy';

export type PolicyFileStatus = { role: FileRole; path: string; state: 'loaded' | 'missing' | 'invalid' };

export type LoadedConfig = ResolvedPolicy & {
  files: PolicyFileStatus[];
  /** `path: key: message` lines for files that were ignored. A hook ignores them; the CLI reports them and exits 1. */
  problems: string[];
};

export type ReadPolicy = { kind: 'missing' } | { kind: 'invalid'; problems: string[] } | { kind: 'ok'; file: PolicyFile };

/**
 * Validates a policy file's text (policy-parse.ts). Passed in rather than
 * imported so the hook bundle loads zod only when a policy file exists.
 */
export type PolicyParser = (text: string, path: string) => ReadPolicy;

/** Where each policy file is looked for, lowest precedence first. */
export function policyFilePaths(ctx: ConfigContext): Array<{ role: FileRole; path: string }> {
  const paths: Array<{ role: FileRole; path: string }> = [{ role: 'user', path: join(ctx.home, '.claude', 'context-ceiling.json') }];
  if (!ctx.userScopeOnly) paths.push({ role: 'project', path: join(ctx.projectDir, '.claude', 'context-ceiling.json') });
  const explicit = ctx.env[ENV.policy];
  if (explicit && ctx.userScopeOnly && !isAbsolute(explicit)) return paths;
  if (explicit) paths.push({ role: 'policy', path: isAbsolute(explicit) ? explicit : resolve(ctx.projectDir, explicit) });
  return paths;
}

/** Read every layer. Never throws: a broken file is left out and described in `problems`. */
export function loadConfig(ctx: ConfigContext, parse: PolicyParser): LoadedConfig {
  const layers: Layer[] = [];
  const files: PolicyFileStatus[] = [];
  const problems: string[] = [];
  const ignored: string[] = [];
  for (const { role, path } of policyFilePaths(ctx)) {
    const read = readPolicyFile(path, parse);
    files.push({ role, path, state: read.kind === 'ok' ? 'loaded' : read.kind });
    if (read.kind === 'invalid') problems.push(...read.problems);
    if (read.kind === 'missing' && role === 'policy') problems.push(`${path}: file not found (named by ${ENV.policy})`);
    if (read.kind !== 'ok') continue;
    const { $schema: _schema, extends: preset, ...values } = read.file;
    for (const problem of judgeLayer(role, values)) {
      ignored.push(`${path}: ${problem.key} ignored: ${problem.message}`);
      delete values[problem.key as keyof typeof values];
    }
    if (preset) {
      const source = {
        layer: 'preset' as const,
        detail: `${preset}, extended by ${path}`,
        ...(role === 'project' ? { byProject: true as const } : {}),
      };
      layers.push({ source, values: presetValues(preset) });
    }
    layers.push({ source: { layer: role as LayerName, detail: path }, values });
  }
  const envWarnings: string[] = [];
  for (const { origin, env } of envByOrigin(ctx)) {
    const envLayer = readEnvLayer(env);
    layers.push({ source: { layer: 'env', detail: origin }, values: envLayer.values });
    envWarnings.push(...envLayer.warnings.map((warning) => (origin ? `${warning} (set in ${origin})` : warning)));
  }
  const resolved = resolvePolicy(layers);
  return { ...resolved, warnings: [...ignored, ...envWarnings, ...resolved.warnings], files, problems };
}

/**
 * The environment split by where each variable came from, so a value's source
 * can name its settings file. Each variable has one origin, so the split
 * changes no value.
 */
function envByOrigin(ctx: ConfigContext): Array<{ origin: string | undefined; env: Record<string, string | undefined> }> {
  // Hooks pass no origins (Claude Code already applied the settings env): no copy of a large environment.
  if (!ctx.envOrigins) return [{ origin: undefined, env: ctx.env }];
  const origins = ctx.envOrigins;
  const groups = new Map<string | undefined, Record<string, string | undefined>>([[undefined, {}]]);
  for (const [name, value] of Object.entries(ctx.env)) {
    const origin = origins[name];
    if (!groups.has(origin)) groups.set(origin, {});
    groups.get(origin)![name] = value;
  }
  return [...groups].map(([origin, env]) => ({ origin, env }));
}

/** A policy file is a few hundred bytes; anything near this is not one. */
export const MAX_POLICY_BYTES = 256 * 1024;

/** Read and validate one policy file. */
export function readPolicyFile(path: string, parse: PolicyParser): ReadPolicy {
  let text: string | undefined;
  try {
    text = readRegularText(path, MAX_POLICY_BYTES);
    if (text === undefined) return { kind: 'missing' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'invalid', problems: [`${path}: cannot be read (${code ?? 'error'})`] };
  }
  return parse(text, path);
}

/** Presets are our own files, validated by the test suite, so they are trusted here. */
function presetValues(name: PresetName): PolicyFile {
  const { $schema: _schema, extends: _extends, ...values } = presetFile(name) as PolicyFile;
  return values;
}
