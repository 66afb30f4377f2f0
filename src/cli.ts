/** The `context-ceiling` bin. Only this file ends the process. */
import { main, processIO } from './cli/main.js';

// processIO ends the run early, and quietly, when the reader of stdout goes away (`| head`).
main(
  process.argv.slice(2),
  processIO((code) => process.exit(code)),
).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
