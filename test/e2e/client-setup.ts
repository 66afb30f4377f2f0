/**
 * The e2e project's globalSetup: installs the pinned Claude Code and Agent SDK (scripts/claude-client.mjs; once,
 * into a per-user cache) before any worker starts, and hands their paths to the tests (`inject`).
 */
import type { TestProject } from 'vitest/node';
import { agentSdkEntry, claudeCodeBinary, clientVersions } from '../../scripts/claude-client.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `claude` binary the e2e tests run. */
    claudeBin: string;
    /** Its version, e.g. 2.1.331 (what the client reports about itself). */
    claudeVersion: string;
    /** The Agent SDK's entry module (sdk.mjs), to import by file URL. */
    agentSdkEntry: string;
  }
}

export default function setup(project: TestProject): void {
  const versions = clientVersions();
  const claudeBin = claudeCodeBinary({ version: versions.claudeCode });
  project.provide('claudeBin', claudeBin);
  project.provide('claudeVersion', versions.claudeCode);
  project.provide('agentSdkEntry', agentSdkEntry({ version: versions.agentSdk }));
  process.stderr.write(`e2e: Claude Code ${versions.claudeCode}, Agent SDK ${versions.agentSdk} (${claudeBin})\n`);
}
