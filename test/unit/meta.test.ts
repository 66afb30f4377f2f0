/** Meta-tests: generated files, presets, core purity and hook wiring stay in step with the code. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyJsonSchema } from '../../src/cli/config.js';
import { ENV } from '../../src/core/constants.js';
import { PRESET_NAMES } from '../../src/core/policy.js';
import { PRESETS } from '../../src/io/config.js';
import { parsePolicyText } from '../../src/io/policy-parse.js';
import { spawnSync } from 'node:child_process';
import { RUNTIME_FILES } from '../../src/cli/install.js';
import { HOOK_SPECS } from '../../src/core/install-plan.js';
import { HOOK_EVENTS } from '../../src/hooks/run.js';
import { ROOT } from '../helpers/sandbox.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('policies/', () => {
  it('schema.json is generated from the zod schema (run `npm run schema` when this fails)', () => {
    expect(JSON.parse(read('policies/schema.json'))).toEqual(policyJsonSchema());
  });

  it('every preset file is known by name, bundled, and valid', () => {
    const files = readdirSync(join(ROOT, 'policies'))
      .filter((name) => name !== 'schema.json')
      .map((name) => name.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...PRESET_NAMES].sort());
    for (const name of PRESET_NAMES) {
      const text = read(`policies/${name}.json`);
      expect(parsePolicyText(text, name)).toMatchObject({ kind: 'ok' });
      expect(JSON.parse(text)).toEqual(PRESETS[name]);
      expect(JSON.parse(text).$schema).toBe('./schema.json');
    }
  });
});

describe('src/core is pure', () => {
  const core = join(ROOT, 'src', 'core');
  it.each(readdirSync(core))('%s imports no Node module, adapter or process state', (file) => {
    const text = readFileSync(join(core, file), 'utf8');
    expect(text).not.toMatch(/from ['"]node:/);
    expect(text).not.toMatch(/from ['"](fs|path|os|child_process)['"]/);
    expect(text).not.toMatch(/from ['"]\.\.\/(io|hooks|cli)\//);
    expect(text).not.toMatch(/\bprocess\./);
    expect(text).not.toMatch(/\bDate\.now\(|new Date\(\)/); // the clock comes in as an argument
  });
});

describe('hooks/hooks.json and the plugin', () => {
  const hooks = JSON.parse(read('hooks/hooks.json')).hooks;

  it('registers exactly HOOK_SPECS (what install writes), each running the bundle through the plugin root', () => {
    expect(Object.keys(hooks).sort()).toEqual(HOOK_SPECS.map((spec) => spec.event).sort());
    for (const spec of HOOK_SPECS) {
      expect(hooks[spec.event]).toEqual([
        {
          ...(spec.matcher ? { matcher: spec.matcher } : {}),
          hooks: [{ type: 'command', command: `node "\${CLAUDE_PLUGIN_ROOT}/dist/hook.cjs" ${spec.name}`, timeout: spec.timeout }],
        },
      ]);
    }
    expect(HOOK_EVENTS.sort()).toEqual(HOOK_SPECS.map((spec) => spec.name).sort());
  });

  it('plugin.json names the package and its version', () => {
    const plugin = JSON.parse(read('.claude-plugin/plugin.json'));
    const pkg = JSON.parse(read('package.json'));
    expect(plugin).toMatchObject({ name: pkg.name, version: pkg.version, hooks: './hooks/hooks.json' });
  });

  it.each(RUNTIME_FILES)('the committed dist/%s is the current build (run npm run build and commit it when this fails)', (file) => {
    const committed = spawnSync('git', ['show', `:dist/${file}`], { cwd: ROOT, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
    expect(committed.status, `dist/${file} is not in git: the plugin route needs it committed`).toBe(0);
    expect(readFileSync(join(ROOT, 'dist', file)).equals(committed.stdout)).toBe(true);
  });

  it.each(['hook.cjs', 'hook-events.cjs', 'statusline.cjs'])(
    'dist/%s carries no zod: it loads from policy-parse.cjs only when a policy file exists',
    (file) => {
      expect(read('dist/policy-parse.cjs')).toContain('_zod'); // the marker this test looks for
      expect(read(`dist/${file}`)).not.toContain('_zod');
    },
  );
});

describe('docs', () => {
  it('docs/configuration.md names every environment variable', () => {
    const doc = read('docs/configuration.md');
    for (const name of Object.values(ENV)) expect(doc).toContain(name);
  });

  it('the README’s two commands are the ones package.json and .ci/run use', () => {
    const readme = read('README.md');
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
    expect(read('.ci/run')).toMatch(/^npm ci && npm test$/m);
  });
});
