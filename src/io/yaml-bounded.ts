/**
 * YAML parsing with a hard wall-clock limit, for the hooks. The parser is
 * synchronous and some 2 MB documents take it tens of seconds, which no check
 * inside a loop of ours can interrupt: it runs in a worker that is abandoned
 * when time is up, while this thread waits on an Atomics wait (still synchronous).
 */
import type * as WorkerThreads from 'node:worker_threads';
import type { YamlResult } from './yaml-parse.js';

/** What the worker runs: parse, post the result, wake the waiting thread. */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { modulePath, text, port, signal } = workerData;
let result;
try { result = require(modulePath).parseYamlText(text); } catch (error) { result = { ok: false, error: String(error && error.message) }; }
try { port.postMessage(result); } catch { port.postMessage({ ok: false, error: 'the parsed document cannot be passed back' }); }
Atomics.store(signal, 0, 1);
Atomics.notify(signal, 0);
`;

/**
 * Parse `text` with the `parseYamlText` exported by `modulePath` (plugin/dist/yaml-parse.cjs),
 * giving up after `timeoutMs`. Never throws.
 */
export function parseYamlWithin(modulePath: string, text: string, timeoutMs: number): YamlResult {
  try {
    // Loaded here, not at the top: only the hooks that read ORCHESTRATION.yaml pay for worker_threads.
    const { MessageChannel, Worker, receiveMessageOnPort } = require('node:worker_threads') as typeof WorkerThreads;
    const signal = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { modulePath, text, port: port2, signal },
      transferList: [port2],
      // Memory is bounded too: a document that expands past this fails instead of growing the hook.
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    Atomics.wait(signal, 0, 0, Math.max(1, timeoutMs));
    const message = receiveMessageOnPort(port1);
    void worker.terminate();
    port1.close();
    if (!message) return { ok: false, error: `not parsed within ${timeoutMs} ms (too large or too complex)` };
    return message.message as YamlResult;
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
