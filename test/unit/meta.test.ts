/** Meta-tests: generated files, presets, core purity and hook wiring stay in step with the code. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyJsonSchema } from '../../src/cli/config.js';
import { ENV } from '../../src/core/constants.js';
import { PRESET_NAMES } from '../../src/core/policy.js';
import { PRESETS } from '../../src/io/config.js';
import { parsePolicyText } from '../../src/io/policy-parse.js';
import { HOOK_EVENTS } from '../../src/hooks/run.js';
import { ROOT } from '../helpers/sandbox.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('policies/', () => {
  it('schema.json is generated from the zod schema (run `npm run schema` when this fails)', () => {
    expect(JSON.parse(read('policies/schema.json'))).toEqual(policyJsonSchema());
  });

  it('every preset file is known by name, bundled, and valid', () => {
    const files = readdirSync(join(ROOT, 'policies')).filter((name) => name !== 'schema.json').map((name) => name.replace(/\.json$/, ''));
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

describe('hooks/hooks.json', () => {
  const hooks = JSON.parse(read('hooks/hooks.json')).hooks;
  const expected: Record<string, [string | undefined, string]> = {
    PreToolUse: ['Agent|Task|Skill', 'pre-tool-use'],
    UserPromptSubmit: [undefined, 'user-prompt-submit'],
    PreCompact: [undefined, 'pre-compact'],
    SessionStart: [undefined, 'session-start'],
    PostToolUse: ['Write|Edit|MultiEdit', 'post-tool-use'],
  };

  it('registers exactly one entry per event, each running the bundle through the plugin root', () => {
    expect(Object.keys(hooks).sort()).toEqual(Object.keys(expected).sort());
    for (const [event, [matcher, name]] of Object.entries(expected)) {
      expect(hooks[event]).toHaveLength(1);
      expect(hooks[event][0].matcher).toBe(matcher);
      expect(hooks[event][0].hooks).toHaveLength(1);
      expect(hooks[event][0].hooks[0]).toMatchObject({ type: 'command', command: `node "\${CLAUDE_PLUGIN_ROOT}/dist/hook.cjs" ${name}` });
      expect(hooks[event][0].hooks[0].timeout).toBeGreaterThan(0);
    }
  });

  it('every registered event is one the hook entry knows', () => {
    for (const [, name] of Object.values(expected)) expect(HOOK_EVENTS).toContain(name);
    expect(HOOK_EVENTS.sort()).toEqual(Object.values(expected).map(([, name]) => name).sort());
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
