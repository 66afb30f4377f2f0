/** What several commands need from their surroundings: the project, its settings, and the configuration of it. */
import { basename } from 'node:path';
import {
  describeRepositoryPath,
  mergeSettingsEnv,
  withoutRepositoryPaths,
  type EffectiveEnv,
  type RepositoryPath,
} from '../core/settings-env.js';
import type { ResolvedWindow } from '../core/window.js';
import { resolveStateDir } from '../io/state.js';
import type { Measurement } from '../io/transcript.js';
import { resolveSessionWindow } from '../window/session-window.js';
import { loadConfig, type ConfigContext, type LoadedConfig } from '../io/config.js';
import { parsePolicyText } from '../io/policy-parse.js';
import { readEffectiveEnv, readSettings, type SettingsReading } from '../io/settings-env.js';
import type { CliIO } from './command.js';
import { CliError } from './errors.js';

/** CLAUDE_PROJECT_DIR (as hooks see it), else the current directory. */
export function projectDirOf(io: CliIO): string {
  return io.env.CLAUDE_PROJECT_DIR || io.cwd;
}

/** `ignoredPaths`: path variables a project or local settings file set, left out of `env` as the hooks leave them out. */
export type ClaudeSettings = SettingsReading & EffectiveEnv & { ignoredPaths: RepositoryPath[] };

const settingsCache = new WeakMap<CliIO, ClaudeSettings>();

/**
 * Claude Code's settings files and the environment a hook would see: their
 * `env` blocks applied over the process environment, as Claude Code does. Read once per run.
 */
export function claudeSettingsOf(io: CliIO): ClaudeSettings {
  const cached = settingsCache.get(io);
  if (cached) return cached;
  const ctx = { env: io.env, home: io.home, projectDir: projectDirOf(io) };
  const reading = readSettings(ctx);
  const effective = readEffectiveEnv(ctx, reading);
  const trusted = withoutRepositoryPaths(effective.env, reading.files);
  const settings = { ...reading, ...effective, env: trusted.env, ignoredPaths: trusted.ignored };
  settingsCache.set(io, settings);
  return settings;
}

export function configContextOf(io: CliIO): ConfigContext {
  const { env, origins } = claudeSettingsOf(io);
  return { env, envOrigins: origins, projectDir: projectDirOf(io), home: io.home };
}

/** Every layer, read and validated; a broken policy file is the CLI's error (a hook would skip it). */
export function loadValidConfig(io: CliIO): LoadedConfig {
  const config = loadUncheckedConfig(io);
  if (config.problems.length > 0) throw new CliError(config.problems.join('\n'));
  return config;
}

/** Every layer, problems left in the result for the caller to report. */
export function loadUncheckedConfig(io: CliIO): LoadedConfig {
  const config = loadConfig(configContextOf(io), parsePolicyText);
  const ignored = claudeSettingsOf(io).ignoredPaths.map(describeRepositoryPath);
  return ignored.length === 0 ? config : { ...config, warnings: [...ignored, ...config.warnings] };
}

/**
 * The configuration of the user's own scope: the process environment with ~/.claude/settings.json's env
 * applied, the user's policy file and one the environment names by an absolute path; nothing from the
 * project (its policy or settings files). What `install --user` writes into every project is computed from this.
 */
export function loadUserScopeConfig(io: CliIO): LoadedConfig {
  const ctx = { env: io.env, home: io.home, projectDir: projectDirOf(io) };
  const { env, origins } = mergeSettingsEnv(io.env, readSettings(ctx, ['user']).files);
  return loadConfig({ env, envOrigins: origins, projectDir: ctx.projectDir, home: io.home, userScopeOnly: true }, parsePolicyText);
}

/**
 * The window the hooks would judge a session by, as `status`, `doctor` and `report` show it: the same
 * resolution (src/window/session-window.ts) over the environment a hook would see, writing nothing.
 */
export function sessionWindowOf(
  io: CliIO,
  config: LoadedConfig,
  transcript: string | undefined,
  measurement: Measurement | undefined,
): ResolvedWindow {
  const { env } = claudeSettingsOf(io);
  const sessionId = transcript ? basename(transcript, '.jsonl') : '';
  return resolveSessionWindow({
    config,
    stateDir: resolveStateDir({ policy: config.policy, env, home: io.home }),
    env,
    now: new Date(),
    sessionId,
    key: sessionId,
    transcript,
    measured: {
      model: measurement?.model,
      tokens: measurement?.occupancy.kind === 'measured' ? measurement.occupancy.tokens : undefined,
      preTokens: measurement?.preTokens,
    },
    debug: () => {},
    persist: false,
  }).window;
}
