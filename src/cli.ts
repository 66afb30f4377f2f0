/**
 * The `context-ceiling` bin (cli.cjs), a few KB: a replay goes to Bun where it is installed before the CLI is even
 * loaded (cli/replay-runtime.ts); anything else, or a replay Node is to run, loads the CLI (cli-main.cjs) and runs it.
 */
import { join } from 'node:path';
import { settleReplayRuntime } from './cli/replay-runtime.js';

const argv = process.argv.slice(2);
const settled = settleReplayRuntime(argv, process.env);
if (settled === undefined) (require(join(__dirname, 'cli-main.cjs')) as typeof import('./cli-main.js')).runCli(argv);
else process.exitCode = settled;
