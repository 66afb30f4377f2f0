/** `context-ceiling install` / `uninstall`: wire the hooks into a Claude Code settings.json, idempotently. */
import { BUN_FLOOR } from '../core/bun-floor.js';
import { ENV } from '../core/env-names.js';
import type { HookRuntime } from '../core/install-plan.js';
import { HOOK_TABLE as HOOK_SPECS } from '../core/hook-table.js';
import { runInstall, runUninstall } from './install-run.js';
import { target } from './install-target.js';
import type { Command } from './command.js';
import { UsageError } from './errors.js';
import { parseFlags, parseWindowFlag } from './flags.js';
import { cliMessage } from './messages.js';

const installUsage =
  'context-ceiling install [--project | --local | --user] [--strict] [--window N] [--statusline] [--runtime auto|node] [--dry-run] [--json]';
const uninstallUsage = 'context-ceiling uninstall [--project | --local | --user] [--dry-run] [--json]';

const SCOPES_HELP = `Where:
  --project   <project>/.claude/settings.json, shared with the team (default)
  --local     <project>/.claude/settings.local.json, this machine only
  --user      ~/.claude/settings.json, every project of this user
<project> is CLAUDE_PROJECT_DIR, else the current directory.`;

export const installCommand: Command = {
  usage: installUsage,
  help: `Usage: ${installUsage}

Adds the context-ceiling hooks (${HOOK_SPECS.map((spec) => spec.event).join(', ')})
to a Claude Code settings file. Other settings and
hooks are kept as they are; running it again changes nothing; the previous
file is backed up first (settings.json.bak-<time>); a malformed settings file
is reported and never overwritten.

The hooks run a copy of the hook bundles that does not depend on where this
package lives (global, project, npx): <project>/.claude/context-ceiling/runtime
for project scopes (or node_modules/context-ceiling when the package is a
dependency of that project), ~/.claude/context-ceiling/runtime for --user.

${SCOPES_HELP}

It also copies the recovery skill the guard's messages name into the scope's
skills folder (<project>/.claude/skills/context-summarization, or
~/.claude/skills/... for --user), pointing at the runtime copy. A different
skill of that name already there is left alone and reported.

Options:
  --strict      block instead of warn: sets ${ENV.strict}=on in the settings'
                "env", and CLAUDE_AUTOCOMPACT_PCT_OVERRIDE just above the ceiling
                so Claude Code compacts by itself after a block and the load
                then passes (unattended sessions have nobody to run /compact)
  --window N    the model's context window in tokens (at least 1000), as
                ${ENV.window}=N in "env"; only a stated window blocks
  --statusline  also make our status line the settings' statusLine: it shows the
                fill and records the session's real window for the hooks; an
                existing statusLine command keeps running, wrapped, and uninstall
                restores it
  --runtime R   what runs the hooks and the status line: auto (the default:
                Bun where \`bun\` ${BUN_FLOOR} or newer is on the PATH when one
                runs, else Node; Bun starts in a fraction of Node's time, see
                bench/RESULTS.md), or node (Node always); bun is auto
  --dry-run     show what would change, change nothing
  --json        machine-readable result
`,
  run(args, io) {
    const flags = parseFlags(
      args,
      { boolean: ['project', 'local', 'user', 'strict', 'statusline', 'dry-run', 'json'], string: ['window', 'runtime'] },
      installUsage,
    );
    if (flags._.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: String(flags._[0]) }), installUsage);
    // One --window check for every command: whole tokens, at least 1000 (a typo like 200 must not become a 200-token window).
    const window = parseWindowFlag(flags.window, installUsage)?.tokens;
    return runInstall(io, target(io, flags, installUsage), {
      strict: flags.strict === true,
      window,
      statusLine: flags.statusline === true,
      hookRuntime: resolveRuntimeFlag(flags.runtime),
      dryRun: flags['dry-run'] === true,
      json: flags.json === true,
    });
  },
};

/** `--runtime`: auto unless Node is asked for; `bun` (an earlier name) is auto, which runs Bun where it is installed. */
function resolveRuntimeFlag(raw: string | undefined): HookRuntime {
  if (raw === undefined || raw === 'auto' || raw === 'bun') return 'auto';
  if (raw === 'node') return 'node';
  throw new UsageError(cliMessage('install.runtime-invalid', { got: raw }), installUsage);
}

export const uninstallCommand: Command = {
  usage: uninstallUsage,
  help: `Usage: ${uninstallUsage}

Removes the context-ceiling hooks install added to the settings file, the
entries and event lists that held only them, the "env" values it set (the
previous value is restored), the runtime files and the recovery skill it
wrote, each only while its content is still what install wrote. Everything
else is left as it is. The previous file is backed up first.

${SCOPES_HELP}

Options:
  --dry-run   show what would change, change nothing
  --json      machine-readable result
`,
  run(args, io) {
    const flags = parseFlags(args, { boolean: ['project', 'local', 'user', 'dry-run', 'json'] }, uninstallUsage);
    if (flags._.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: String(flags._[0]) }), uninstallUsage);
    return runUninstall(io, target(io, flags, uninstallUsage), { dryRun: flags['dry-run'] === true, json: flags.json === true });
  },
};
