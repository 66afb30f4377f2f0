/** `context-ceiling statusline [--wrap CMD]`: the status line command, through the bin. */
import { linkedServices } from '../hooks/services.js';
import { runStatusLine } from '../hooks/statusline.js';
import { processHookHost } from '../runtime/run.js';
import { parseFlags, UsageError, type Command } from './io.js';
import { cliMessage } from './messages.js';

const usage = 'context-ceiling statusline [--wrap "<command>"] [--no-color]';

export const statuslineCommand: Command = {
  usage,
  help: `Usage: ${usage}

Claude Code runs a status line command after each turn with JSON on stdin
(session, model, context_window). This prints one line:

  host 12% ▕█░░░░░░░░░▏ 121,005/1,000,000 NOMINAL

and records the window Claude Code reports for the session in the state
directory: the hooks judge that session against it while it is fresh (window
source "status line"), and remember it for models Claude Code's table does not
know. DEV_TEAM_CONTEXT_WINDOW or a user policy "window" still win.

The bar and the tier are coloured by tier even though the output is a pipe:
Claude Code draws them. --no-color or NO_COLOR (any value but empty) turns
the colours off.

Options:
  --wrap "<command>"   run your existing status line command too (same input)
                       and append this line to the first line of its output
  --no-color           no ANSI colour (the wrapped command gets NO_COLOR=1)

Wire it with: context-ceiling install --statusline
`,
  run(args, io) {
    const flags = parseFlags(args, { string: ['wrap'] }, usage);
    if (flags._.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: String(flags._[0]) }), usage);
    const host = {
      ...processHookHost(linkedServices()),
      // The status line reads NO_COLOR (hooks/statusline.ts): --no-color is said the same way, to a wrapped command too.
      env: io.noColor ? { ...io.env, NO_COLOR: '1' } : io.env,
      cwd: io.cwd,
      home: io.home,
      writeStderr: io.err,
    };
    const output = runStatusLine(io.readStdin(), host, { wrap: flags.wrap });
    if (output) io.out(`${output}\n`);
    return 0;
  },
};
