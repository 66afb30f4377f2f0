/**
 * The end-to-end tests run the hooks as installed: by default the hook command runs Bun when the shell finds
 * `bun` on the PATH. `npm test` puts this package's node_modules/.bin (the pinned Bun among it) on the PATH,
 * which no user's Claude Code has: those folders leave the PATH here (withoutNpmBins, as the package project's
 * sandbox does), so the tests meet the machine as its user does (on CI, no Bun: the hooks run with Node). The
 * Bun runs (CC_HOOK_RUNTIME=bun, test/e2e/bun-runtime.test.ts) keep the PATH they were given, a logging `bun`
 * first on it. The `node` the client finds is the current LTS Node (client-setup.ts), through world.ts hookNodeFirst.
 */
import { inject } from 'vitest';
import { withoutNpmBins } from '../helpers/sandbox.js';

if (process.env.CC_HOOK_RUNTIME !== 'bun') process.env.PATH = withoutNpmBins(process.env.PATH ?? '/usr/bin:/bin');
process.env.CC_HOOK_NODE_DIR ??= inject('hookNodeDir');
