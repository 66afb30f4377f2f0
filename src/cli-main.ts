/** The CLI itself (cli-main.cjs), which the bin (cli.ts) loads. Only this file ends the process. */
import type { BundleCache } from './io/code-cache.js';
import { keepCodeCache } from './io/code-cache-write.js';
import { commandName, main, processIO } from './cli/main.js';

/** `cache`: this bundle's code cache (cli.ts), kept after the command when it lacks that command's functions. */
export function runCli(argv: string[], cache?: BundleCache): void {
  // processIO ends the run early, and quietly, when the reader of stdout goes away (`| head`).
  main(
    argv,
    processIO((code) => process.exit(code)),
  ).then(
    (code) => {
      process.exitCode = code;
      keepCodeCache(cache, commandName(argv));
    },
    () => {
      process.exitCode = 1;
    },
  );
}
