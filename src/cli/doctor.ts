/** `context-ceiling doctor`: is everything in place? Each check says what it found and how to fix it. */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { AUTOCOMPACT_PCT_ENV, AUTOCOMPACT_WINDOW_ENV, describeAutocompact, resolveAutocompact } from '../core/autocompact.js';
import { describeWindowSource, formatTokens, STATE_THE_WINDOW } from '../core/messages.js';
import { HOOK_SPECS, ourHookName } from '../core/install-plan.js';
import { describeSource } from '../core/policy.js';
import { sanitizeText } from '../core/sanitize.js';
import { findPluginInstall, type SettingsFacts } from '../core/settings-env.js';
import type { ResolvedWindow } from '../core/window.js';
import { sessionWindow } from '../hooks/context.js';
import { windowFromConfig } from '../core/window.js';
import type { LoadedConfig } from '../io/config.js';
import { newestTranscript, projectTranscriptDir } from '../io/locate.js';
import { defaultStateDir, ensurePrivateDir } from '../io/state.js';
import { readOccupancy } from '../io/transcript.js';
import { claudeSettingsOf, loadUncheckedConfig, projectDirOf, type ClaudeSettings } from './context.js';
import { parseFlags, UsageError, type CliIO, type Command, toJsonOutput } from './io.js';

const usage = 'context-ceiling doctor [--json]';

type Check = { name: string; status: 'ok' | 'warn' | 'fail'; detail: string; fix?: string | undefined };

export const doctorCommand: Command = {
  summary: 'check Node, installed hooks, state directory and window',
  usage,
  help: `Usage: ${usage}

Checks, each with a fix when something is wrong:
  node      the Node.js version (20 or newer)
  hooks     the context-ceiling plugin enabled in a settings file, or which
            settings files register the hooks, whether every event is there
            and the runtime each command runs exists
  config    every policy file parses and validates
  window    the window the hooks use for this project's newest session, and
            where it comes from (env, policy, bridge, learned or the
            200,000 default, which is wrong for 1M-context models)
  strict    strict mode on an assumed window blocks nothing
  compact   where Claude Code itself will compact (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE,
            CLAUDE_CODE_AUTO_COMPACT_WINDOW), a percent of its effective window
  state     the private state directory is ours, private and not a symlink

Settings are read as the hooks get them: the "env" blocks of
.claude/settings.local.json, .claude/settings.json and
~/.claude/settings.json applied over the environment, as Claude Code does.

Exit codes: 0 when nothing failed (warnings allowed), 1 otherwise.
`,
  run(args, io) {
    const flags = parseFlags(args, { boolean: ['json'] }, usage);
    if (flags._.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(String(flags._[0]))}`, usage);
    const checks = runChecks(io);
    if (flags.json) io.out(toJsonOutput({ ok: checks.every((c) => c.status !== 'fail'), checks }));
    else {
      const mark = { ok: '✓', warn: '!', fail: '✗' } as const;
      for (const check of checks) {
        // Details name paths, model ids and settings values: one sanitiser before the terminal.
        io.out(`${mark[check.status]} ${check.name.padEnd(7)} ${sanitizeText(check.detail)}\n`);
        if (check.fix) io.out(`  ${' '.repeat(8)}fix: ${sanitizeText(check.fix)}\n`);
      }
    }
    return checks.some((check) => check.status === 'fail') ? 1 : 0;
  },
};

function runChecks(io: CliIO): Check[] {
  const projectDir = projectDirOf(io);
  const settings = claudeSettingsOf(io);
  const config = loadUncheckedConfig(io);
  const checks: Check[] = [checkNode(), ...checkHooks(settings, projectDir)];
  checks.push(
    config.problems.length > 0
      ? { name: 'config', status: 'fail', detail: config.problems.join('; '), fix: 'correct the file (context-ceiling config validate shows every problem)' }
      : config.warnings.length > 0
        ? { name: 'config', status: 'warn', detail: config.warnings.join('; '), fix: 'correct or unset the variable' }
        : { name: 'config', status: 'ok', detail: `valid (${config.files.filter((f) => f.state === 'loaded').map((f) => f.path).join(', ') || 'defaults and environment only'})` },
  );
  const window = hookWindow(io, config, projectDir);
  checks.push(checkWindow(window, config));
  if (config.policy.strict && window.source === 'default') {
    checks.push({
      name: 'strict',
      status: 'warn',
      detail: `strict mode (${describeSource(config.sources.strict!)}) on an assumed window: strict blocks nothing until the window is known`,
      fix: `state it: ${STATE_THE_WINDOW} (install --window N writes it), or run the status line`,
    });
  }
  checks.push(checkCompaction(settings, config, window));
  checks.push(checkState(config));
  return checks;
}

/** The window as the hooks resolve it for this project's newest session (the bridge and a learned window are per session and model). */
function hookWindow(io: CliIO, config: LoadedConfig, projectDir: string): ResolvedWindow & { session?: string } {
  const configured = windowFromConfig(config);
  const transcript = newestTranscript(projectTranscriptDir(io.env, io.home, projectDir));
  if (!transcript) return configured;
  const { model } = readOccupancy(transcript, { maxScanBytes: config.policy.maxScanBytes });
  const session = basename(transcript, '.jsonl');
  return { ...sessionWindow({ window: configured, policy: config.policy }, new Date(), session, model), session };
}

function checkWindow(window: ResolvedWindow & { session?: string }, config: LoadedConfig): Check {
  const from = describeWindowSource(window, config.sources.window && describeSource(config.sources.window));
  const basis = window.session === undefined ? '' : ` for session ${window.session}`;
  if (window.source !== 'default') return { name: 'window', status: 'ok', detail: `${formatTokens(window.tokens)} tokens (${from})${basis}` };
  return {
    name: 'window',
    status: 'warn',
    detail: `${formatTokens(window.tokens)} tokens (default)${basis}: right for 200K models, five times too small for 1M-context ones`,
    fix: `state it: ${STATE_THE_WINDOW}, or a policy "window"`,
  };
}

function checkCompaction(settings: ClaudeSettings, config: LoadedConfig, window: ResolvedWindow): Check {
  const point = resolveAutocompact(settings.env);
  if (point) {
    const origin = [AUTOCOMPACT_PCT_ENV, AUTOCOMPACT_WINDOW_ENV].map((name) => settings.origins[name]).find((label) => label !== undefined);
    return { name: 'compact', status: 'ok', detail: `${describeAutocompact(point, window.tokens)}${origin ? ` Set in ${origin}.` : ''}` };
  }
  if (!config.policy.strict) return { name: 'compact', status: 'ok', detail: 'Claude Code compacts at its own default point (not overridden)' };
  return {
    name: 'compact',
    status: 'warn',
    detail: 'strict mode, and Claude Code compacts only near the full window: in an unattended session a block lasts until then',
    fix: `set ${AUTOCOMPACT_PCT_ENV} at or just above the ceiling (context-ceiling install --strict does)`,
  };
}

function checkState(config: LoadedConfig): Check {
  const stateDir = config.policy.stateDir ?? defaultStateDir();
  try {
    ensurePrivateDir(stateDir);
    return { name: 'state', status: 'ok', detail: `${stateDir} is private (0700) and yours` };
  } catch (error) {
    return { name: 'state', status: 'fail', detail: (error as Error).message, fix: `remove it, or point DEV_TEAM_CONTEXT_STATE_DIR at a directory only you own` };
  }
}

function checkNode(): Check {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 20 ? { name: 'node', status: 'ok', detail: `Node ${process.version}` } : { name: 'node', status: 'fail', detail: `Node ${process.version} is too old`, fix: 'install Node.js 20 or newer' };
}

function checkHooks(settings: ClaudeSettings, projectDir: string): Check[] {
  const checks: Check[] = settings.problems.map((problem) => ({ name: 'hooks', status: 'fail', detail: problem, fix: 'repair the file; Claude Code ignores it as it is' }));
  const plugin = findPluginInstall(settings.files);
  if (plugin) checks.push({ name: 'hooks', status: 'ok', detail: `plugin ${plugin.id} enabled in ${plugin.label}: its hooks run on every event` });
  const installs = settings.files.map((file) => checkSettingsHooks(file, projectDir)).filter((check): check is Check => check !== undefined);
  checks.push(...installs);
  if (!plugin && installs.length === 0) {
    checks.push({ name: 'hooks', status: 'fail', detail: 'no context-ceiling hooks in the project, local or user settings, and no context-ceiling plugin enabled', fix: 'run context-ceiling install (or install the repository as a Claude Code plugin)' });
  }
  return checks;
}

function checkSettingsHooks(file: SettingsFacts, projectDir: string): Check | undefined {
  const ours = file.hookCommands.filter((command) => ourHookName(command) !== undefined);
  if (ours.length === 0) return undefined;
  const names = new Set(ours.map((command) => ourHookName(command)));
  const missing = HOOK_SPECS.filter((spec) => !names.has(spec.name)).map((spec) => spec.event);
  const runtimes = [...new Set(ours.map((command) => /"([^"]+)\/hook\.cjs"/.exec(command)?.[1]?.replace('$CLAUDE_PROJECT_DIR', projectDir)))].filter((dir): dir is string => dir !== undefined);
  const absent = runtimes.filter((dir) => !existsSync(join(dir, 'hook.cjs')));
  const scope = file.scope === 'user' ? ' --user' : file.scope === 'local' ? ' --local' : '';
  if (absent.length > 0) return { name: 'hooks', status: 'fail', detail: `${file.label} (${file.scope}) runs ${absent.join(', ')}/hook.cjs, which does not exist`, fix: `run context-ceiling install${scope} again` };
  if (missing.length > 0) return { name: 'hooks', status: 'warn', detail: `${file.label} (${file.scope}) lacks ${missing.join(', ')}`, fix: `run context-ceiling install${scope}` };
  return { name: 'hooks', status: 'ok', detail: `${file.label} (${file.scope}): all ${HOOK_SPECS.length} events, runtime ${runtimes.join(', ')}` };
}
