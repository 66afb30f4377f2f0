/** `context-ceiling statusline [--wrap CMD]`: the status line command, through the bin. */
import { linkedServices } from '../hooks/linked-services.js';
import { runStatusLine } from '../hooks/statusline.js';
import { processHookHost } from '../runtime/run.js';
import type { Command } from './command.js';
import { UsageError } from './errors.js';
import { parseFlags } from './flags.js';
import { cliMessage } from './messages.js';

const usage = 'context-ceiling statusline [--wrap "<command>"] [--no-color]';

export const statuslineCommand: Command = {
  usage,
  help: `Usage: ${usage}

Claude Code runs a status line command after each turn with JSON on stdin
(session, model, context_window). This prints one line, the bar marking the
ceiling (│), then what is left before it or, over it, before Claude Code's own
compaction:

  ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling
  ctx 45% ▕████│█░░░░░▏ 450,005/1,000,000 · over the 40% ceiling · 516,995 to compaction

Right after a /compact, when Claude Code sends no usage, it shows the compacted
size from the transcript (what Claude Code itself shows), marked "since
compaction". With COLUMNS set, parts are dropped to fit.

and records the window Claude Code reports for the session in the state
directory: the hooks judge that session against it while it is fresh (window
source "status line"), and remember it for models Claude Code's table does not
know. DEV_TEAM_CONTEXT_WINDOW or a user policy "window" still win.

The colour says how close the ceiling and Claude Code's compaction are (green,
yellow within 10 points of the ceiling, red over it, white on red near the
compaction) even though the output is a pipe: Claude Code draws it. --no-color or NO_COLOR (any value but empty) turns
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
