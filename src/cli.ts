/** The `context-ceiling` bin. Only this file ends the process. */
import { main, processIO } from './cli/main.js';

main(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
