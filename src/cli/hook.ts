/** `context-ceiling hook <event>`: the same runner as hook.cjs, reachable through the bin. */
import { HOOK_NAMES, HOOK_TABLE, isEntryName, SKILL_COMMANDS } from '../core/hook-table.js';
import { HANDLERS } from '../hooks/handlers.js';
import { linkedServices } from '../hooks/linked-services.js';
import { bundleDir } from '../io/bundle-dir.js';
import { inputFor, processHookHost, runHookEvent } from '../runtime/run.js';
import type { Command } from './command.js';
import { UsageError } from './errors.js';
import { cliMessage } from './messages.js';

const usage = `context-ceiling hook <${[...HOOK_NAMES, ...SKILL_COMMANDS].join('|')}>`;

export const hookCommand: Command = {
  usage,
  help: `Usage: ${usage}

Runs one Claude Code hook: reads the hook's JSON input on stdin and answers
the way Claude Code expects (exit 0, silent or with JSON on stdout; a block is a
"deny" decision in that JSON). Fails open: any bad input or internal error is
exit 0 with no output, and the reason is on the debug channel
(DEV_TEAM_CONTEXT_DEBUG=1: "verdict <event>: <reason>").

Events:
${HOOK_TABLE.map((spec) => `  ${spec.name.padEnd(20)} ${spec.event}${'matcher' in spec ? ` on ${spec.matcher}` : ''}: ${spec.does}`).join('\n')}
  ${'save-checkpoint'.padEnd(20)} (run by the recovery skill, no input) save a checkpoint of the session
                       in CLAUDE_CODE_SESSION_ID and say what to do next
`,
  run(args, io) {
    const [event, ...extra] = args;
    if (!isEntryName(event)) throw new UsageError(cliMessage('hook.unknown-event', { event: event ?? '' }), usage);
    if (extra.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: extra[0] }), usage);
    // The same bounded YAML parsing as hook.cjs: the parser runs in a worker, from the bundle beside this one.
    const host = {
      ...processHookHost(linkedServices(bundleDir())),
      env: io.env,
      cwd: io.cwd,
      home: io.home,
      writeStderr: io.err,
    };
    const outcome = runHookEvent(event, () => HANDLERS[event], host, inputFor(event, io.readStdin));
    if (outcome.stdout) io.out(outcome.stdout);
    if (outcome.stderr) io.err(outcome.stderr);
    return outcome.exitCode;
  },
};
