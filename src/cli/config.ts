/** `context-ceiling config show|get|set|unset|validate|schema`: every value with the layer it came from. */
import * as z from 'zod/mini';
import { describeSource } from '../core/policy.js';
import { policyFileSchema } from '../core/policy-schema.js';
import { policyFilePaths, type LoadedConfig } from '../io/config.js';
import { claudeSettingsOf, configContextOf, loadUncheckedConfig, loadValidConfig, projectDirOf } from './project.js';
import { settingsFilePaths } from '../io/settings-env.js';
import { parsePolicyText } from '../io/policy-parse.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliIO, Command } from './command.js';
import { CliError, UsageError } from './errors.js';
import { parseFlags } from './flags.js';
import { toJsonOutput } from './output.js';
import { cliMessage } from './messages.js';
import { configRows, formatRow, formatValue, jsonRow, rowsOf } from './config-rows.js';
import { runSet, runUnset, type WriteScope } from './config-write.js';

const usage =
  'context-ceiling config show [--json] | get KEY [--json] | set KEY VALUE [--user|--project] [--json] | unset KEY [--user|--project] [--json] | validate [FILE] | schema';

export const configCommand: Command = {
  usage,
  help: `Usage: ${usage}

Layers, lowest first (a later layer wins key by key):
  default                 built-in values
  preset                  a preset named by a file's "extends"
  user                    ~/.claude/context-ceiling.json
  project                 <project>/.claude/context-ceiling.json
  policy                  the file named by DEV_TEAM_CONTEXT_POLICY
  env                     DEV_TEAM_CONTEXT_* variables of this process
  env (FILE)              DEV_TEAM_CONTEXT_* in the "env" block of a Claude
                          Code settings file (~/.claude/settings.json, then
                          .claude/settings.json, then .claude/settings.local.json);
                          Claude Code applies these over its own environment,
                          so the hooks see them even when the shell sets another

Subcommands:
  show                    every value and where it came from
  get KEY                 one value (e.g. ceilingPct, tools.Skill, tiers)
  set KEY VALUE           write KEY into a policy file: the user's by default,
                          --project for <project>/.claude/context-ceiling.json
                          (which may not set stateDir). VALUE is written as
                          the key's variable takes it, and the file must stay
                          valid:  ceilingPct 35 · strict on · tools.Skill block
                          · recoverySkills a,b · tools Skill=block,Agent=warn
                          · tiers.warningPct 65 · window 1000000
                          · stateDir /abs/path · extends strict-ci (a preset:
                          default, strict-ci, large-window, strict-skills)
                          Prints what changed, where, and what is now in force
                          (an environment variable still wins over any file)
  unset KEY               remove KEY (or the tiers group) from that file
  validate [FILE]         check FILE, or every layer; exit 1 with
                          "path: key: message" lines when something is wrong
  schema                  print the JSON Schema of a policy file

Options:
  --user                  (set, unset) ~/.claude/context-ceiling.json, the default
  --project               (set, unset) <project>/.claude/context-ceiling.json
  --json                  machine-readable output (show, get, set, unset)

set and unset keep the file's other keys, their order and its mode, replace it
atomically, and refuse a file that is a symlink, not yours, or not valid JSON.
`,
  run(args, io) {
    const flags = parseFlags(negativeValueAfterSetKey(args), { boolean: ['json', 'user', 'project'] }, usage);
    const [sub, ...rest] = flags._.map(String);
    const scope = fileScope(flags, sub);
    switch (sub) {
      case 'show':
        expectArgs(rest, 0);
        return show(io, flags.json === true);
      case 'get':
        if (rest.length !== 1) throw new UsageError(cliMessage('config.get-needs-key'), usage);
        return get(io, rest[0]!, flags.json === true);
      case 'set':
        if (rest.length !== 2) throw new UsageError(cliMessage('config.set-needs-key-value'), usage);
        return runSet(io, scope, rest[0]!, rest[1]!, flags.json === true, usage);
      case 'unset':
        if (rest.length !== 1) throw new UsageError(cliMessage('config.unset-needs-key'), usage);
        return runUnset(io, scope, rest[0]!, flags.json === true, usage);
      case 'validate':
        if (rest.length > 1) throw new UsageError(cliMessage('config.validate-one-file'), usage);
        return validate(io, rest[0]);
      case 'schema':
        expectArgs(rest, 0);
        io.out(toJsonOutput(policyJsonSchema()));
        return 0;
      case undefined:
        throw new UsageError(
          cliMessage('needs-subcommand', { command: 'config', choices: 'show, get, set, unset, validate or schema' }),
          usage,
        );
      default:
        throw new UsageError(cliMessage('unknown-subcommand', { command: 'config', sub }), usage);
    }
  },
};

/**
 * `config set ceilingPct -5`: the VALUE is an operand, not an option `-5` (minimist's reading); moved after `--`
 * so the key's own check refuses it in words. VALUE is set's last operand, and config's flags take no values.
 */
export function negativeValueAfterSetKey(args: readonly string[]): string[] {
  const operands = args.flatMap((arg, i) => (arg.startsWith('-') ? [] : [i]));
  const [sub, key] = operands;
  if (sub === undefined || key === undefined || args[sub] !== 'set' || args.includes('--')) return [...args];
  const value = args.findIndex((arg, i) => i > key && /^-\d/.test(arg));
  if (value === -1) return [...args];
  return [...args.slice(0, value), ...args.slice(value + 1), '--', args[value]!];
}

/** The file set and unset write: --user (the default) or --project; the flags mean nothing to the other subcommands. */
function fileScope(flags: Record<string, unknown>, sub: string | undefined): WriteScope {
  if (flags.user === true && flags.project === true) throw new UsageError(cliMessage('config.one-file'), usage);
  if ((flags.user === true || flags.project === true) && sub !== 'set' && sub !== 'unset')
    throw new UsageError(cliMessage('config.scope-for-writes'), usage);
  return flags.project === true ? 'project' : 'user';
}

function expectArgs(rest: string[], count: number): void {
  if (rest.length > count) throw new UsageError(cliMessage('unexpected-argument', { arg: rest[count] }), usage);
}

function show(io: CliIO, json: boolean): number {
  const config = loadValidConfig(io);
  const table = configRows(config);
  if (json) {
    io.out(
      toJsonOutput({
        settings: table.map(jsonRow),
        files: config.files,
        settingsFiles: settingsStates(io),
        warnings: config.warnings,
      }),
    );
    // Warned on stderr in every mode, as `get` does: a script reading only stdout still leaves a trace for its user.
    warn(io, config);
    return 0;
  }
  const width = Math.max(...table.map((row) => row.key.length)) + 2;
  const valueWidth = Math.min(40, Math.max(...table.map((row) => formatValue(row.value).length)) + 2);
  for (const row of table) io.out(`${row.key.padEnd(width)}${column(formatValue(row.value), valueWidth)}${describeSource(row.source)}\n`);
  io.out(`\n${cliMessage('config.policy-files')}\n`);
  for (const file of config.files) io.out(`  ${file.role.padEnd(8)}${file.path} (${file.state})\n`);
  io.out(`\n${cliMessage('config.settings-files')}\n`);
  for (const file of settingsStates(io)) io.out(`  ${file.scope.padEnd(8)}${file.path} (${file.state})\n`);
  warn(io, config);
  return 0;
}

/** Each Claude Code settings file: read, missing, or why it was skipped. */
function settingsStates(io: CliIO): Array<{ scope: string; path: string; state: string }> {
  const settings = claudeSettingsOf(io);
  return settingsFilePaths({ env: io.env, home: io.home, projectDir: projectDirOf(io) }).map((file) => {
    const problem = settings.problems.find((line) => line.startsWith(`${file.path}: `));
    const state = problem ? problem.slice(file.path.length + 2) : settings.files.some((f) => f.scope === file.scope) ? 'read' : 'missing';
    return { scope: file.scope, path: file.path, state };
  });
}

/** A table cell: padded to `width`, and never running into the next column when longer. */
function column(text: string, width: number): string {
  return text.length + 2 > width ? `${text}  ` : text.padEnd(width);
}

function warn(io: CliIO, config: LoadedConfig): void {
  for (const warning of config.warnings) io.err(`${cliMessage('warning', { warning })}\n`);
}

function get(io: CliIO, key: string, json: boolean): number {
  const config = loadValidConfig(io);
  const table = configRows(config);
  const matches = rowsOf(table, key);
  if (matches.length === 0) {
    const keys = [...new Set(table.map((row) => row.key.split('.')[0]))].join(', ');
    throw new UsageError(cliMessage('config.unknown-key', { key, keys }), usage);
  }
  if (json) {
    const entries = matches.map(jsonRow);
    io.out(toJsonOutput(entries.length === 1 ? entries[0] : entries));
    warn(io, config);
    return 0;
  }
  for (const row of matches) io.out(`${formatRow(row)}\n`);
  // A malformed variable falls back to the next layer: say so here too, or the shown default looks deliberate.
  warn(io, config);
  return 0;
}

function validate(io: CliIO, file: string | undefined): number {
  if (file !== undefined) {
    const path = resolve(io.cwd, file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new CliError(cliMessage('file-unreadable', { path, code: (error as NodeJS.ErrnoException).code ?? 'error' }));
    }
    const result = parsePolicyText(text, path);
    if (result.kind !== 'ok')
      throw new CliError(result.kind === 'invalid' ? result.problems.join('\n') : cliMessage('config.not-found', { path }));
    io.out(`${cliMessage('config.file-ok', { path })}\n`);
    return 0;
  }
  const config = loadUncheckedConfig(io);
  const problems = [...config.problems, ...config.warnings];
  for (const { role, path } of policyFilePaths(configContextOf(io))) {
    const status = config.files.find((f) => f.path === path)?.state ?? 'missing';
    io.out(`${role.padEnd(8)}${path}: ${status === 'loaded' ? 'ok' : status}\n`);
  }
  if (problems.length > 0) throw new CliError(problems.join('\n'));
  io.out(`${cliMessage('config.valid')}\n`);
  return 0;
}

/** The JSON Schema committed as policies/schema.json (a test keeps it in step). */
export function policyJsonSchema(): Record<string, unknown> {
  return { ...z.toJSONSchema(policyFileSchema(), { io: 'input' }), title: 'context-ceiling policy' };
}
