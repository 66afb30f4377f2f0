/**
 * The e2e project's globalSetup: installs the pinned Claude Code and Agent SDK (scripts/claude-client.mjs; once,
 * into a per-user cache) before any worker starts, and hands their paths to the tests (`inject`). Also the `node`
 * the client's hooks run with: the current LTS line's (bench/lts-node.ts, fetched once from the npm registry), as a
 * user installing Node today has it, not the machine's own (20, past its end of life; the package project runs
 * every hook suite with that one).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { findLtsNode, NODE_LTS_VERSION } from '../../bench/lts-node.js';
import { agentSdkEntry, claudeCodeBinary, clientVersions } from '../../scripts/claude-client.mjs';

/** Where the e2e `node` notes each run (`<args>` a line) when a World sets it (world.ts nodeRuns). */
export const NODE_RUNS_LOG_ENV = 'CC_E2E_NODE_RUNS_LOG';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `claude` binary the e2e tests run. */
    claudeBin: string;
    /** Its version, e.g. 2.1.331 (what the client reports about itself). */
    claudeVersion: string;
    /** The Agent SDK's entry module (sdk.mjs), to import by file URL. */
    agentSdkEntry: string;
    /** A folder whose `node` runs the current LTS Node (and notes each run): first on the client's PATH. */
    hookNodeDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const versions = clientVersions();
  const claudeBin = claudeCodeBinary({ version: versions.claudeCode });
  const node = findLtsNode(join(homedir(), '.cache', 'context-ceiling'));
  if (!node) {
    throw new Error(
      `e2e: node-${process.platform}-${process.arch}@${NODE_LTS_VERSION} could not be fetched from the npm registry (BENCH_NODE_LTS=<a node binary> names one at hand)`,
    );
  }
  const hookNodeDir = mkdtempSync(join(tmpdir(), 'cc-e2e-node-'));
  const log = `"$${NODE_RUNS_LOG_ENV}"`;
  writeFileSync(join(hookNodeDir, 'node'), `#!/bin/sh\nif [ -n ${log} ]; then printf '%s\\n' "$*" >> ${log}; fi\nexec '${node}' "$@"\n`, {
    mode: 0o755,
  });
  project.provide('claudeBin', claudeBin);
  project.provide('claudeVersion', versions.claudeCode);
  project.provide('agentSdkEntry', agentSdkEntry({ version: versions.agentSdk }));
  project.provide('hookNodeDir', hookNodeDir);
  process.stderr.write(
    `e2e: Claude Code ${versions.claudeCode}, Agent SDK ${versions.agentSdk} (${claudeBin}); hooks run by Node ${NODE_LTS_VERSION}\n`,
  );
  return () => rmSync(hookNodeDir, { recursive: true, force: true });
}
