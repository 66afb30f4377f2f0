/** What the plugin carries (plugin/, the marketplace's plugin source): the manifest, the hooks, the recovery skill, the CLI's bin shim and the bundles they run. */
import { RUNTIME_FILES } from '../../src/cli/install-target.js';

/** The CLI's own bundles: the bin, the CLI it loads, and what its replay worker threads run. */
export const CLI_BUNDLES = ['cli.cjs', 'cli-main.cjs', 'replay-worker.cjs'];

export const PAYLOAD_FILES = [
  '.claude-plugin/plugin.json',
  'bin/context-ceiling',
  'hooks/hooks.json',
  'skills/context-summarization/SKILL.md',
  ...[...RUNTIME_FILES, ...CLI_BUNDLES].map((file) => `dist/${file}`),
].sort();

/**
 * The plugin must stay small: it is copied into every user's ~/.claude/plugins. Each path's hook bundle carries
 * the code it runs (start-up is the budget: no event compiles another's code), so shared code such as the
 * transcript reader is in each; at 1 MiB since 2026-11, this cap stops further growth going unseen.
 */
export const PAYLOAD_MAX_BYTES = 1.25 * 1024 * 1024;
