/** `context-ceiling doctor`: is everything in place? Each check says what it found and how to fix it. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatTokens } from '../core/messages.js';
import { HOOK_SPECS, ourHookName } from '../core/install-plan.js';
import { windowFromConfig } from '../hooks/context.js';
import { loadUncheckedConfig, projectDirOf } from './context.js';
import { defaultStateDir, ensurePrivateDir } from '../io/state.js';
import { parseFlags, UsageError, type CliIO, type Command } from './io.js';

const usage = 'context-ceiling doctor [--json]';

type Check = { name: string; status: 'ok' | 'warn' | 'fail'; detail: string; fix?: string | undefined };

export const doctorCommand: Command = {
  summary: 'check Node, installed hooks, state directory and window',
  usage,
  help: `Usage: ${usage}

Checks, each with a fix when something is wrong:
  node      the Node.js version (20 or newer)
  hooks     which settings files register the hooks, whether every event is
            there and the runtime each command runs exists
  config    every policy file parses and validates
  window    where the context window comes from (the 200,000 default is
            wrong for 1M-context models)
  state     the private state directory is ours, private and not a symlink

Exit codes: 0 when nothing failed (warnings allowed), 1 otherwise.
`,
  run(args, io) {
    const flags = parseFlags(args, { boolean: ['json'] }, usage);
    if (flags._.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(String(flags._[0]))}`, usage);
    const checks = runChecks(io);
    if (flags.json) io.out(`${JSON.stringify({ ok: checks.every((c) => c.status !== 'fail'), checks }, null, 2)}\n`);
    else {
      const mark = { ok: '✓', warn: '!', fail: '✗' } as const;
      for (const check of checks) {
        io.out(`${mark[check.status]} ${check.name.padEnd(7)} ${check.detail}\n`);
        if (check.fix) io.out(`  ${' '.repeat(8)}fix: ${check.fix}\n`);
      }
    }
    return checks.some((check) => check.status === 'fail') ? 1 : 0;
  },
};

function runChecks(io: CliIO): Check[] {
  const projectDir = projectDirOf(io);
  const config = loadUncheckedConfig(io);
  const checks: Check[] = [checkNode(), ...checkHooks(io, projectDir)];
  checks.push(
    config.problems.length > 0
      ? { name: 'config', status: 'fail', detail: config.problems.join('; '), fix: 'correct the file (context-ceiling config validate shows every problem)' }
      : config.warnings.length > 0
        ? { name: 'config', status: 'warn', detail: config.warnings.join('; '), fix: 'correct or unset the variable' }
        : { name: 'config', status: 'ok', detail: `valid (${config.files.filter((f) => f.state === 'loaded').map((f) => f.path).join(', ') || 'defaults and environment only'})` },
  );
  const window = windowFromConfig(config);
  checks.push(
    window.source === 'default'
      ? { name: 'window', status: 'warn', detail: `${formatTokens(window.tokens)} tokens (default): right for 200K models, five times too small for 1M-context ones`, fix: 'on a 1M-context model set DEV_TEAM_CONTEXT_WINDOW=1000000 (or "window": 1000000 in a policy file)' }
      : { name: 'window', status: 'ok', detail: `${formatTokens(window.tokens)} tokens (${window.source}${window.detail ? `: ${window.detail}` : ''})` },
  );
  const stateDir = config.policy.stateDir ?? defaultStateDir();
  try {
    ensurePrivateDir(stateDir);
    checks.push({ name: 'state', status: 'ok', detail: `${stateDir} is private (0700) and yours` });
  } catch (error) {
    checks.push({ name: 'state', status: 'fail', detail: (error as Error).message, fix: `remove it, or point DEV_TEAM_CONTEXT_STATE_DIR at a directory only you own` });
  }
  return checks;
}

function checkNode(): Check {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 20 ? { name: 'node', status: 'ok', detail: `Node ${process.version}` } : { name: 'node', status: 'fail', detail: `Node ${process.version} is too old`, fix: 'install Node.js 20 or newer' };
}

function checkHooks(io: CliIO, projectDir: string): Check[] {
  const files = [
    { label: 'project', path: join(projectDir, '.claude', 'settings.json') },
    { label: 'local', path: join(projectDir, '.claude', 'settings.local.json') },
    { label: 'user', path: join(io.home, '.claude', 'settings.json') },
  ];
  const checks: Check[] = [];
  for (const file of files) {
    if (!existsSync(file.path)) continue;
    let settings: { hooks?: Record<string, Array<{ hooks?: Array<{ command?: unknown }> }>> };
    try {
      settings = JSON.parse(readFileSync(file.path, 'utf8'));
    } catch (error) {
      checks.push({ name: 'hooks', status: 'fail', detail: `${file.path} is not valid JSON (${(error as Error).message})`, fix: 'repair the file; Claude Code ignores it as it is' });
      continue;
    }
    const commands = Object.values(settings.hooks ?? {}).flatMap((entries) => (Array.isArray(entries) ? entries : []).flatMap((entry) => (Array.isArray(entry?.hooks) ? entry.hooks : []).map((hook) => hook?.command)));
    const ours = commands.filter((command): command is string => ourHookName(command) !== undefined);
    if (ours.length === 0) continue;
    const names = new Set(ours.map((command) => ourHookName(command)));
    const missing = HOOK_SPECS.filter((spec) => !names.has(spec.name)).map((spec) => spec.event);
    const runtimes = [...new Set(ours.map((command) => /"([^"]+)\/hook\.cjs"/.exec(command)?.[1]?.replace('$CLAUDE_PROJECT_DIR', projectDir)))].filter((dir): dir is string => dir !== undefined);
    const absent = runtimes.filter((dir) => !existsSync(join(dir, 'hook.cjs')));
    const scope = file.label === 'user' ? ' --user' : file.label === 'local' ? ' --local' : '';
    if (absent.length > 0) checks.push({ name: 'hooks', status: 'fail', detail: `${file.path} (${file.label}) runs ${absent.join(', ')}/hook.cjs, which does not exist`, fix: `run context-ceiling install${scope} again` });
    else if (missing.length > 0) checks.push({ name: 'hooks', status: 'warn', detail: `${file.path} (${file.label}) lacks ${missing.join(', ')}`, fix: `run context-ceiling install${scope}` });
    else checks.push({ name: 'hooks', status: 'ok', detail: `${file.path} (${file.label}): all ${HOOK_SPECS.length} events, runtime ${runtimes.join(', ')}` });
  }
  if (checks.length === 0) {
    checks.push({ name: 'hooks', status: 'fail', detail: 'no context-ceiling hooks in the project, local or user settings (a plugin install is not visible here)', fix: 'run context-ceiling install (or install the repository as a Claude Code plugin)' });
  }
  return checks;
}
