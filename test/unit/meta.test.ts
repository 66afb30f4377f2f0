/** Meta-tests: generated files, presets, core purity and hook wiring stay in step with the code. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyJsonSchema } from '../../src/cli/config.js';
import { ENV } from '../../src/core/env-names.js';
import { PRESET_NAMES } from '../../src/core/policy.js';
import { presetFile } from '../../src/io/config.js';
import { parsePolicyText } from '../../src/io/policy-parse.js';
import { spawnSync } from 'node:child_process';
import ts from 'typescript';
import { RUNTIME_FILES } from '../../src/cli/install-target.js';
import { BUN_FLOOR } from '../../src/core/bun-floor.js';
import { ENTRY_NAMES, entryBundleFile, HOOK_TABLE, type HookSpec } from '../../src/core/hook-table.js';
import { REGISTRY_MODEL_LINES, REGISTRY_PROVIDER_LINES } from '../../src/core/model-registry.generated.js';
import { expectedCommand } from '../helpers/hook-table.js';
import { CLI_BUNDLES, PAYLOAD_FILES, PAYLOAD_MAX_BYTES } from '../helpers/payload.js';
import { ROOT } from '../helpers/sandbox.js';
import { compiledEagerly, MANGLE_HELD, nthMangledName } from '../../tsup.config.js';

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
      expect(JSON.parse(text)).toEqual(presetFile(name));
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

describe('plugin/: the payload Claude Code installs and runs', () => {
  const hooks = JSON.parse(read('plugin/hooks/hooks.json')).hooks;

  it('registers exactly the hook table (what install writes), each running the bundle through the plugin root, with Bun where installed', () => {
    expect(Object.keys(hooks).sort()).toEqual(HOOK_TABLE.map((spec) => spec.event).sort());
    for (const spec of HOOK_TABLE as readonly HookSpec[]) {
      expect(hooks[spec.event]).toEqual([
        {
          ...(spec.matcher ? { matcher: spec.matcher } : {}),
          hooks: [
            {
              type: 'command',
              command: expectedCommand('${CLAUDE_PLUGIN_ROOT}/dist', spec.name),
              timeout: spec.timeout,
            },
          ],
        },
      ]);
    }
  });

  it('the oldest Bun the hooks run under is the Bun the whole suite passes with (the devDependency)', () => {
    // Raising the devDependency without the floor would vouch for Bun versions no test ran.
    expect(JSON.parse(read('package.json')).devDependencies.bun).toBe(BUN_FLOOR);
  });

  it('plugin.json names the package and its version', () => {
    const plugin = JSON.parse(read('plugin/.claude-plugin/plugin.json'));
    const pkg = JSON.parse(read('package.json'));
    expect(plugin).toMatchObject({ name: pkg.name, version: pkg.version, hooks: './hooks/hooks.json' });
  });

  it('holds only what runs, committed, and nothing else after a build; under 1.25 MB', () => {
    const committed = spawnSync('git', ['ls-files', '-s', 'plugin'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim().split('\n');
    expect(committed.map((line) => line.split('\t')[1]!.replace(/^plugin\//, '')).sort()).toEqual(PAYLOAD_FILES);
    expect(readdirSync(join(ROOT, 'plugin'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length).toBe(
      PAYLOAD_FILES.length,
    );
    const bytes = PAYLOAD_FILES.reduce((sum, file) => sum + statSync(join(ROOT, 'plugin', file)).size, 0);
    expect(bytes).toBeLessThan(PAYLOAD_MAX_BYTES);
    // Claude Code puts the plugin's bin/ on its shell's PATH; git keeps the mode a clone needs.
    expect(committed.find((line) => line.endsWith('\tplugin/bin/context-ceiling'))).toMatch(/^100755 /);
  });

  it.each([...RUNTIME_FILES, ...CLI_BUNDLES])(
    'the committed plugin/dist/%s is the current build (run npm run build and commit it when this fails)',
    (file) => {
      const committed = spawnSync('git', ['show', `:plugin/dist/${file}`], { cwd: ROOT, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
      expect(committed.status, `plugin/dist/${file} is not in git: the plugin route needs it committed`).toBe(0);
      expect(readFileSync(join(ROOT, 'plugin', 'dist', file)).equals(committed.stdout)).toBe(true);
    },
  );

  it.each([...RUNTIME_FILES, ...CLI_BUNDLES])(
    'plugin/dist/%s is ASCII: one non-ASCII character makes V8 keep the whole source as a two-byte string, decoded on every run',
    (file) => {
      const bytes = readFileSync(join(ROOT, 'plugin', 'dist', file));
      expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
    },
  );

  it('the bin shim runs the bundled CLI', () => {
    const run = spawnSync(join(ROOT, 'plugin', 'bin', 'context-ceiling'), ['--version'], { encoding: 'utf8' });
    expect(run.stdout).toBe(`${JSON.parse(read('package.json')).version}\n`);
  });

  it.each(RUNTIME_FILES.filter((file) => file !== 'policy-parse.cjs' && file !== 'yaml-parse.cjs'))(
    'plugin/dist/%s carries no zod: it loads from policy-parse.cjs only when a policy file exists',
    (file) => {
      expect(read('plugin/dist/policy-parse.cjs')).toContain('_zod'); // the marker this test looks for
      expect(read(`plugin/dist/${file}`)).not.toContain('_zod');
    },
  );

  it.each(['hook.cjs', 'statusline.cjs'])(
    "plugin/dist/%s, the launcher Node compiles from source on every run, holds no table it does not read: of the variables only the state directory's",
    (file) => {
      const launcher = read(`plugin/dist/${file}`);
      expect(launcher).toContain(ENV.stateDir);
      for (const name of Object.values(ENV).filter((name) => name !== ENV.stateDir)) expect(launcher).not.toContain(`"${name}"`);
      expect(launcher.length).toBeLessThan(3 * 1024);
    },
  );

  // tsup.config.ts EAGER_LAUNCHERS: V8 compiles a parenthesized function with the script, a declaration only when first
  // called (parsing it a second time): the launchers, compiled from source on every run, hold none.
  it.each(['hook.cjs', 'statusline.cjs'])(
    'plugin/dist/%s defines its functions to be compiled with the script, not on first call',
    (file) => {
      const text = read(`plugin/dist/${file}`);
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
      const declared = source.statements.filter(ts.isFunctionDeclaration).map((f) => f.name?.text);
      expect(declared).toEqual([]);
      const eager = source.statements.filter(
        (s) =>
          ts.isVariableStatement(s) &&
          s.declarationList.declarations.some(
            (d) => d.initializer && ts.isParenthesizedExpression(d.initializer) && ts.isFunctionExpression(d.initializer.expression),
          ),
      );
      expect(eager.length).toBeGreaterThanOrEqual(8); // the launch, the state directory, the code cache reader…
    },
  );

  // tsup.config.ts EAGER_DIRECTIVE (test/blackbox/code-cache.test.ts shows what it is for): after terser, a marked
  // declaration is defined first as a parenthesized expression, a marked expression put in parentheses, the rest left.
  it("a function marked 'eager' is compiled with what holds it; one that cannot be fails the build", () => {
    const built =
      '"use strict";var a=1;function f(e){"eager";return e}function g(e){return e}var h=x&&function(e){"eager";return function(){"eager";return e}}(a);';
    expect(compiledEagerly(built)).toBe(
      '"use strict";var f=(function(e){return e});var a=1;function g(e){return e}var h=x&&(function(e){return (function(){return e})})(a);',
    );
    expect(() => compiledEagerly('var f=e=>{"eager";return e};')).toThrow(/"eager" in a ArrowFunction/);
    for (const file of readdirSync(join(ROOT, 'plugin', 'dist'))) {
      if (!/^(hook-|statusline-main)/.test(file)) continue;
      expect(read(`plugin/dist/${file}`), file).not.toContain('"eager"');
    }
  });

  // tsup.config.ts nthMangledName: a code cache names every top-level binding, and a name new to V8's string table is
  // inserted when the cache is read (enough of them double the table: ~0.5 M instructions of a warning, bench/RESULTS.md).
  it('the hook bundles name their top-level bindings with single characters or names V8 already holds', () => {
    const names = Array.from({ length: 2000 }, (_, n) => nthMangledName(n));
    expect(new Set(names).size).toBe(names.length); // one name per ordinal: terser never gives two bindings one name
    for (const name of names) expect(name).toMatch(/^[A-Za-z$_][\w$]*$/);
    for (const file of ['hook-pre-tool-use.cjs', 'hook-user-prompt-submit.cjs', 'hook-pre-compact.cjs', 'statusline-main.cjs']) {
      const source = ts.createSourceFile(file, read(`plugin/dist/${file}`), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
      const topLevel = source.statements.flatMap((s) =>
        ts.isFunctionDeclaration(s) && s.name
          ? [s.name.text]
          : ts.isVariableStatement(s)
            ? s.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []))
            : [],
      );
      expect(topLevel.length, file).toBeGreaterThan(40);
      expect(
        topLevel.filter((name) => !MANGLE_HELD.has(name)),
        file,
      ).toEqual([]);
    }
  });

  // package.json's "sideEffects": false lets esbuild drop a module whose exports a bundle never uses, top level and
  // all: without it, every bundle that imports anything beside the model registry's module builds its table and maps.
  it.each(['hook-post-compact.cjs', 'hook-post-tool-use.cjs', 'hook-session-start.cjs', 'launch-failed.cjs'])(
    'plugin/dist/%s, which never reads the model registry, neither holds nor builds it',
    (file) => {
      const bundle = read(`plugin/dist/${file}`);
      // The tables' lines, as esbuild writes a template literal's text (a line break as `\n`).
      for (const lines of [REGISTRY_MODEL_LINES, REGISTRY_PROVIDER_LINES]) {
        for (const line of lines.trim().split('\n')) expect(bundle).not.toContain(line);
      }
    },
  );

  // hooks/main.ts exportBundle: an ESM `export` has esbuild build an object of getters at every load of the bundle.
  it.each([
    ...ENTRY_NAMES.map((name): [string, string] => [entryBundleFile(name), 'runBundle']),
    ['statusline-main.cjs', 'runStatusLineBundle'],
  ])('plugin/dist/%s exports its %s through module.exports, with no ESM export object built at load', (file, name) => {
    expect(read(`plugin/dist/${file}`)).not.toContain('__esModule');
    const exported: unknown = createRequire(import.meta.url)(join(ROOT, 'plugin', 'dist', file));
    expect(Object.keys(exported as object)).toEqual([name]);
    expect(typeof (exported as Record<string, unknown>)[name]).toBe('function');
  });

  it('replay-worker.cjs, what a replay worker thread compiles, holds the scan and the analysis, not the CLI', () => {
    const worker = read('plugin/dist/replay-worker.cjs');
    expect(worker).toContain('context-ceiling replay worker'); // the role it serves
    expect(worker).not.toContain('Usage: context-ceiling'); // no command, no help text
    expect(worker).not.toContain('_zod');
    expect(worker.length).toBeLessThan(read('plugin/dist/cli-main.cjs').length / 8);
  });
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
