/**
 * The hook table (src/core/hook-table.ts) is the one declaration of the hook events: everything that lists
 * them is derived from it, or checked here to say the same.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookCommand } from '../../src/cli/hook.js';
import { installCommand } from '../../src/cli/install.js';
import { HOOK_NAMES, HOOK_TABLE, type HookSpec, renderPluginHooks, SKILL_COMMANDS } from '../../src/core/hook-table.js';
import { HANDLERS } from '../../src/hooks/handlers.js';
import { ROOT } from '../helpers/sandbox.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const TABLE: readonly HookSpec[] = HOOK_TABLE;

describe('the hook table', () => {
  it('plugin/hooks/hooks.json is the table rendered (the build writes it; run npm run build when this fails)', () => {
    const description = JSON.parse(read('plugin/hooks/hooks.json')).description as string;
    expect(read('plugin/hooks/hooks.json')).toBe(renderPluginHooks(description));
  });

  it('a handler for every entry, and for nothing else', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual([...HOOK_NAMES, ...SKILL_COMMANDS].sort());
  });

  it('hook --help names every event, its matcher and what it does; install --help every event', () => {
    for (const spec of TABLE) {
      expect(hookCommand.help).toContain(
        `  ${spec.name.padEnd(20)} ${spec.event}${spec.matcher ? ` on ${spec.matcher}` : ''}: ${spec.does}`,
      );
      expect(installCommand.help).toContain(spec.event);
    }
  });

  it("README's hook table has one row per entry, with its event and matcher", () => {
    const rows = read('README.md')
      .split('\n')
      .filter((line) => /^\| [a-z -]+ \| [A-Z][A-Za-z]+( on `|\s\|)/.test(line));
    expect(rows.map((row) => row.split('|')[1]!.trim())).toEqual(TABLE.map((spec) => spec.role));
    for (const [i, spec] of TABLE.entries()) {
      const on = spec.matcher ? ` on \`${spec.matcher.replaceAll('|', '\\|')}\`` : '';
      expect(rows[i]).toContain(`| ${spec.role} | ${spec.event}${on} |`);
    }
  });

  it('docs/hooks.md has a section per event, naming its matcher', () => {
    const doc = read('docs/hooks.md');
    for (const spec of TABLE) {
      expect(doc).toMatch(new RegExp(`^## ${spec.event} — `, 'm'));
      if (spec.matcher) expect(doc).toContain(`Registered on \`${spec.matcher}\``);
    }
  });
});
