/** Finds, reads and validates the policy layers; the merge itself is core (policy.ts). */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import defaultPreset from '../../policies/default.json' with { type: 'json' };
import largeWindowPreset from '../../policies/large-window.json' with { type: 'json' };
import strictCiPreset from '../../policies/strict-ci.json' with { type: 'json' };
import strictSkillsPreset from '../../policies/strict-skills.json' with { type: 'json' };
import { ENV } from '../core/constants.js';
import { readEnvLayer, resolvePolicy, checkPolicyRules, type Layer, type LayerName, type ResolvedPolicy } from '../core/policy.js';
import { formatPolicyIssues, policyFileSchema, type PolicyFile, type PresetName } from '../core/policy-schema.js';

/** Presets ship inside the bundle so they resolve wherever the package is installed. */
export const PRESETS: Record<PresetName, unknown> = {
  default: defaultPreset,
  'strict-ci': strictCiPreset,
  'large-window': largeWindowPreset,
  'strict-skills': strictSkillsPreset,
};

export type ConfigContext = {
  env: Readonly<Record<string, string | undefined>>;
  /** CLAUDE_PROJECT_DIR, else the hook input's cwd, else the process cwd. */
  projectDir: string;
  home: string;
};

export type FileRole = 'user' | 'project' | 'policy';

export type PolicyFileStatus = { role: FileRole; path: string; state: 'loaded' | 'missing' | 'invalid' };

export type LoadedConfig = ResolvedPolicy & {
  files: PolicyFileStatus[];
  /** `path: key: message` lines for files that were ignored. A hook ignores them; the CLI reports them and exits 1. */
  problems: string[];
};

export type ReadPolicy = { kind: 'missing' } | { kind: 'invalid'; problems: string[] } | { kind: 'ok'; file: PolicyFile };

/** Where each policy file is looked for, lowest precedence first. */
export function policyFilePaths(ctx: ConfigContext): Array<{ role: FileRole; path: string }> {
  const paths: Array<{ role: FileRole; path: string }> = [
    { role: 'user', path: join(ctx.home, '.claude', 'context-ceiling.json') },
    { role: 'project', path: join(ctx.projectDir, '.claude', 'context-ceiling.json') },
  ];
  const explicit = ctx.env[ENV.policy];
  if (explicit) paths.push({ role: 'policy', path: isAbsolute(explicit) ? explicit : resolve(ctx.projectDir, explicit) });
  return paths;
}

/** Read every layer. Never throws: a broken file is left out and described in `problems`. */
export function loadConfig(ctx: ConfigContext): LoadedConfig {
  const layers: Layer[] = [];
  const files: PolicyFileStatus[] = [];
  const problems: string[] = [];
  for (const { role, path } of policyFilePaths(ctx)) {
    const read = readPolicyFile(path);
    files.push({ role, path, state: read.kind === 'ok' ? 'loaded' : read.kind });
    if (read.kind === 'invalid') problems.push(...read.problems);
    if (read.kind === 'missing' && role === 'policy') problems.push(`${path}: file not found (named by ${ENV.policy})`);
    if (read.kind !== 'ok') continue;
    const { $schema: _schema, extends: preset, ...values } = read.file;
    if (preset) layers.push({ source: { layer: 'preset', detail: `${preset}, extended by ${path}` }, values: presetValues(preset) });
    layers.push({ source: { layer: role as LayerName, detail: path }, values });
  }
  const envLayer = readEnvLayer(ctx.env);
  layers.push({ source: { layer: 'env' }, values: envLayer.values });
  const resolved = resolvePolicy(layers);
  return { ...resolved, warnings: [...envLayer.warnings, ...resolved.warnings], files, problems };
}

/** Read and validate one policy file. */
export function readPolicyFile(path: string): ReadPolicy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'invalid', problems: [`${path}: cannot be read (${code ?? 'error'})`] };
  }
  return parsePolicyText(text, path);
}

export function parsePolicyText(text: string, path: string): ReadPolicy {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', problems: [`${path}: not valid JSON (${(error as Error).message})`] };
  }
  const parsed = policyFileSchema().safeParse(json);
  if (!parsed.success) {
    const lines = formatPolicyIssues(parsed.error.issues);
    return { kind: 'invalid', problems: (lines.length ? lines : ['must be a JSON object']).map((line) => `${path}: ${line}`) };
  }
  const ruleProblems = checkPolicyRules(parsed.data);
  if (ruleProblems.length) return { kind: 'invalid', problems: ruleProblems.map((line) => `${path}: ${line}`) };
  return { kind: 'ok', file: parsed.data };
}

function presetValues(name: PresetName): PolicyFile {
  const { $schema: _schema, extends: _extends, ...values } = policyFileSchema().parse(PRESETS[name]);
  return values;
}
