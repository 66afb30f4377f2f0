/**
 * Claude Code's plugin records as `claude plugin marketplace add` and `claude plugin install`
 * leave them (shapes seen on 2.1.328 and 2.1.331; test/e2e/plugin-routes.test.ts checks them
 * against the real client), for doctor's black-box tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUNTIME_FILES } from '../../src/cli/install-target.js';
import { ROOT, type Sandbox } from './sandbox.js';

/** What doctor needs of a plugin folder: hooks.json, and bundles that load and run (doctor runs them). */
const PLUGIN_FILES = ['plugin/hooks/hooks.json', ...RUNTIME_FILES.map((file) => `plugin/dist/${file}`)];

const contentOf = (file: string) => (file.endsWith('.cjs') || file.endsWith('/hooks.json') ? readFileSync(join(ROOT, file), 'utf8') : '{}');

/** A clone added as a folder marketplace: hooks run from `<clone>/plugin`. Returns the clone's path. */
export function folderMarketplace(sandbox: Sandbox, clone = 'clone'): string {
  sandbox.write(
    `${clone}/.claude-plugin/marketplace.json`,
    JSON.stringify({ name: 'context-ceiling', plugins: [{ name: 'context-ceiling', source: './plugin' }] }),
  );
  for (const file of PLUGIN_FILES) sandbox.write(`${clone}/${file}`, contentOf(file));
  const path = `${sandbox.root}/${clone}`;
  records(sandbox, 'known_marketplaces.json', {
    'context-ceiling': { source: { source: 'directory', path }, installLocation: path, lastUpdated: '2026-11-24T18:00:26.700Z' },
  });
  return path;
}

/** A marketplace added from a git URL: its clone under plugins/marketplaces/, the plugin's copy under plugins/cache/. Returns the copy. */
export function gitMarketplace(sandbox: Sandbox): string {
  const plugins = `${sandbox.home}/.claude/plugins`;
  sandbox.write('home/.claude/plugins/marketplaces/context-ceiling/.claude-plugin/marketplace.json', '{}');
  for (const file of PLUGIN_FILES)
    sandbox.write(`home/.claude/plugins/cache/context-ceiling/context-ceiling/0.1.0/${file.slice('plugin/'.length)}`, contentOf(file));
  const copy = `${plugins}/cache/context-ceiling/context-ceiling/0.1.0`;
  records(sandbox, 'known_marketplaces.json', {
    'context-ceiling': {
      source: { source: 'git', url: 'https://git.example/context-ceiling.git' },
      installLocation: `${plugins}/marketplaces/context-ceiling`,
    },
  });
  records(sandbox, 'installed_plugins.json', {
    version: 2,
    plugins: { 'context-ceiling@context-ceiling': [{ scope: 'user', installPath: copy, version: '0.1.0' }] },
  });
  return copy;
}

function records(sandbox: Sandbox, name: string, content: unknown): void {
  sandbox.write(`home/.claude/plugins/${name}`, JSON.stringify(content, null, 2));
}
