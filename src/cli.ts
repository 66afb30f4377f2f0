/**
 * The `context-ceiling` bin (cli.cjs), a few KB: a replay goes to Bun where it is installed before the CLI is even
 * loaded (cli/replay-runtime.ts); anything else, or a replay Node is to run, loads the CLI (cli-main.cjs) and runs it,
 * compiled from V8's code cache in the private state directory when there is one, as the hooks load their bundles
 * (hooks/launch.ts): compiling the CLI's 330 KB from source costs about half a Node start on every command.
 */
import { settleReplayRuntime } from './cli/replay-runtime.js';
import { launcherStateDir, readCachedBundle } from './hooks/launch.js';

const argv = process.argv.slice(2);
const settled = settleReplayRuntime(argv, process.env);
if (settled === undefined) {
  const { exports, cache } = readCachedBundle(__dirname, 'cli-main.cjs', launcherStateDir(process.env));
  (exports as typeof import('./cli-main.js')).runCli(argv, cache);
} else process.exitCode = settled;
