/** What several commands need from their surroundings: the project, and the configuration of it. */
import { loadConfig, type ConfigContext, type LoadedConfig } from '../io/config.js';
import { parsePolicyText } from '../io/policy-parse.js';
import { CliError, type CliIO } from './io.js';

/** CLAUDE_PROJECT_DIR (as hooks see it), else the current directory. */
export function projectDirOf(io: CliIO): string {
  return io.env.CLAUDE_PROJECT_DIR || io.cwd;
}

export function configContextOf(io: CliIO): ConfigContext {
  return { env: io.env, projectDir: projectDirOf(io), home: io.home };
}

/** Every layer, read and validated; a broken policy file is the CLI's error (a hook would skip it). */
export function loadValidConfig(io: CliIO): LoadedConfig {
  const config = loadUncheckedConfig(io);
  if (config.problems.length > 0) throw new CliError(config.problems.join('\n'));
  return config;
}

/** Every layer, problems left in the result for the caller to report. */
export function loadUncheckedConfig(io: CliIO): LoadedConfig {
  return loadConfig(configContextOf(io), parsePolicyText);
}
