/** `context-ceiling statusline [--wrap CMD]`: the status line command, through the bin. */
import { processHookContext } from '../hooks/run.js';
import { runStatusLine } from '../hooks/statusline.js';
import { parsePolicyText } from '../io/policy-parse.js';
import { GUARD_VOICE } from '../hooks/guard-voice.js';
import { parseYamlText } from '../io/yaml-parse.js';
import { parseFlags, UsageError, type Command } from './io.js';
import { cliMessage } from './messages.js';

const usage = 'context-ceiling statusline [--wrap "<command>"]';

export const statuslineCommand: Command = {
  usage,
  help: `Usage: ${usage}

Claude Code runs a status line command after each turn with JSON on stdin
(session, model, context_window). This prints one line:

  ctx 12% ▕█░░░░░░░░░▏ 121,005/1,000,000 NOMINAL

and records the window Claude Code reports for the session in the state
directory: the hooks judge that session against it while it is fresh (window
source "status line"), and remember it for models Claude Code's table does not
know. DEV_TEAM_CONTEXT_WINDOW or a user policy "window" still win.
NO_COLOR turns the colours off.

Options:
  --wrap "<command>"   run your existing status line command too (same input)
                       and append this line to the first line of its output

Wire it with: context-ceiling install --statusline
`,
  run(args, io) {
    const flags = parseFlags(args, { string: ['wrap'] }, usage);
    if (flags._.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: String(flags._[0]) }), usage);
    const ctx = {
      ...processHookContext({ parsePolicy: parsePolicyText, parseYaml: parseYamlText, voice: () => GUARD_VOICE }),
      env: io.env,
      cwd: io.cwd,
      home: io.home,
      writeStderr: io.err,
    };
    const output = runStatusLine(io.readStdin(), ctx, { wrap: flags.wrap });
    if (output) io.out(`${output}\n`);
    return 0;
  },
};
