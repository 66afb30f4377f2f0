/** The CLI itself (cli-main.cjs), which the bin (cli.ts) loads. Only this file ends the process. */
import { main, processIO } from './cli/main.js';

export function runCli(argv: string[]): void {
  // processIO ends the run early, and quietly, when the reader of stdout goes away (`| head`).
  main(
    argv,
    processIO((code) => process.exit(code)),
  ).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = 1;
    },
  );
}
