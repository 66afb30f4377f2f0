/** replay-worker.cjs: a worker thread of `replay` (cli/replay-files.ts) runs this, and only what replaying one file needs. */
import { serveReplayWorker } from './cli/replay-file.js';

serveReplayWorker();
