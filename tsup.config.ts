import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

// Everything is bundled: the package installs with no runtime dependencies,
// and a plugin checkout runs without `npm install`.
const shared: Options = {
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  define: { PACKAGE_VERSION: JSON.stringify(version) },
  sourcemap: false,
  clean: false,
};

export default defineConfig([
  {
    // The hook entry: CommonJS loads ~5 ms faster than ESM on Node 20, and a hook's budget is its start-up.
    ...shared,
    // policy-parse.cjs holds zod; hook.cjs requires it only when a policy file exists.
    entry: { hook: 'src/hook.ts', 'policy-parse': 'src/io/policy-parse.ts' },
    external: ['./policy-parse.cjs'],
    noExternal: [/^(?!\.\/policy-parse\.cjs$)/],
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    minify: true,
    splitting: false,
  },
  {
    ...shared,
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    splitting: true,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
