/** scripts/models.mjs against made-up binaries: it reads the catalog's shape or stops with one line, never half-writing. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { ROOT } from '../helpers/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'cc-models-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SONNET = '{id:"claude-sonnet-4-5",family:"sonnet",provider_ids:{first_party:"claude-sonnet-4-5-20250929",mantle:null}';
const CONTEXT = 'context:{window:200000,maximum_window:1e6,supports_1m_beta:!0,supports_1m_suffix:!0}';
const OPUS = '{id:"claude-opus-5-5",provider_ids:{bedrock:"us.anthropic.claude-opus-5-5"},context:{window:1e6,native_1m:!0},pricing:.5}';

/** The catalog as the client minifies it, inside a module with a version line, inside a "binary". */
function catalog({
  sonnet = `${SONNET},${CONTEXT}}`,
  tail = ',aliases:{opus:{default:"claude-opus-5-5",per_provider:{}}},best:"opus"',
} = {}) {
  return `{"//":"Hand-maintained baked-in model catalog \\u2014 the source of truth",schema_version:1,models:[${sonnet},${OPUS}]${tail}}`;
}
function binary(name: string, literal: string, version = '// Version: 9.9.9') {
  const path = join(dir, name);
  writeFileSync(
    path,
    Buffer.concat([Buffer.from([0, 1, 2, 255]), Buffer.from(`// @bun @bytecode\n${version}\nvar hGs=${literal};function R(){}`)]),
  );
  return path;
}
function run(...args: string[]) {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'models.mjs'), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run models', () => {
  const table = join(dir, 'table.ts');

  it('writes the table from the catalog, and --check then finds it equal', () => {
    const bin = binary('good', catalog());
    expect(run('--bin', bin, '--table', table)).toMatchObject({ status: 0, stdout: expect.stringContaining('2 models, 1 aliases') });
    const text = readFileSync(table, 'utf8');
    expect(text).toContain('from @anthropic-ai/claude-code@9.9.9');
    expect(text).toContain('\nclaude-sonnet-4-5 200000 1000000 0 1 1\nclaude-opus-5-5 1000000 - 1 0 0\n');
    expect(text).toContain('\nus.anthropic.claude-opus-5-5 claude-opus-5-5\n');
    expect(text).toContain('REGISTRY_LARGEST_WINDOW = 1_000_000');
    expect(run('--bin', bin, '--table', table, '--check')).toMatchObject({ status: 0, stdout: expect.stringContaining('matches') });
  });

  it('--check lists each difference on its own line and exits 1', () => {
    const bin = binary('changed', catalog({ sonnet: `${SONNET},context:{window:1e6,native_1m:!0}}` }), '// Version: 9.9.10');
    const result = run('--bin', bin, '--table', table, '--check');
    expect(result.status).toBe(1);
    expect(result.stdout.split('\n').slice(1, -1)).toEqual([
      '  REGISTRY_CLIENT_VERSION: committed "9.9.9", client "9.9.10"',
      '  REGISTRY_MODEL_LINES claude-sonnet-4-5 window: committed 200000, client 1000000',
      '  REGISTRY_MODEL_LINES claude-sonnet-4-5 maximumWindow: committed 1000000, client null',
      '  REGISTRY_MODEL_LINES claude-sonnet-4-5 native1m: committed false, client true',
      '  REGISTRY_MODEL_LINES claude-sonnet-4-5 supports1mBeta: committed true, client false',
      '  REGISTRY_MODEL_LINES claude-sonnet-4-5 supports1mSuffix: committed true, client false',
    ]);
  });

  it('--check: a hand edit that changes no data is still a difference', () => {
    const edited = join(dir, 'edited.ts');
    writeFileSync(edited, `${readFileSync(table, 'utf8')}// tweak\n`);
    expect(run('--bin', binary('good', catalog()), '--table', edited, '--check')).toMatchObject({
      status: 1,
      stdout: expect.stringContaining('the text differs from what npm run models writes'),
    });
  });

  it.each([
    ['no catalog', 'var x={};', 'the model catalog ({"//":"Hand-maintained baked-in model catalog…) is not in the binary'],
    ['two catalogs', `${catalog()};var y=${catalog()}`, 'the model catalog anchor occurs more than once in the binary'],
    ['code inside', catalog({ tail: ',aliases:f()' }), 'the model catalog is not a plain literal: not a literal: "f()'],
    ['a cut-off literal', catalog().slice(0, 200), 'the model catalog is not a plain literal'],
    ['another schema', catalog().replace('schema_version:1', 'schema_version:2'), 'catalog schema_version is 2, expected 1'],
    [
      'a window that is no number',
      catalog({ sonnet: `${SONNET},context:{window:"big"}}` }),
      'model #0 (claude-sonnet-4-5): context.window',
    ],
    ['a new context field', catalog({ sonnet: `${SONNET},context:{window:1,wider:!0}}` }), 'context has a field we do not know, wider'],
    ['a maximum below the window', catalog({ sonnet: `${SONNET},context:{window:9,maximum_window:8}}` }), 'context.maximum_window'],
    ['a flag that is no boolean', catalog({ sonnet: `${SONNET},context:{window:9,native_1m:1}}` }), 'context.native_1m is not a boolean'],
    ['a strange id', catalog({ sonnet: '{id:"Sonnet 4.5",provider_ids:{}}' }), 'model #0 (Sonnet 4.5): id is not a claude-… id'],
    [
      'a shared spelling',
      catalog({ sonnet: `${SONNET.replace('claude-sonnet-4-5-20250929', 'US.anthropic.claude-opus-5-5')}}` }),
      'provider id',
    ],
    ['an alias to nowhere', catalog({ tail: ',aliases:{opus:{default:"claude-opus-9"}}' }), 'alias opus: default is not a model id'],
    ['no version line', catalog(), 'names no `// Version: x.y.z`'],
  ])('%s: exit 2, one line, the table untouched', (name, literal, reason) => {
    const untouched = join(dir, 'untouched.ts');
    writeFileSync(untouched, 'sentinel');
    const bin = name === 'no version line' ? binary('bad', literal, '// no version') : binary('bad', literal);
    const result = run('--bin', bin, '--table', untouched);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(reason);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(readFileSync(untouched, 'utf8')).toBe('sentinel');
  });

  it('a binary beside a package of another version is refused', () => {
    const pkg = join(dir, 'pkg');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@anthropic-ai/claude-code', version: '9.9.8' }));
    writeFileSync(join(pkg, 'bin', 'claude.exe'), readFileSync(binary('good', catalog())));
    const result = run('--bin', join(pkg, 'bin', 'claude.exe'), '--table', join(dir, 'never.ts'));
    expect(result).toMatchObject({ status: 2, stderr: expect.stringContaining('the binary says 9.9.9 but') });
    expect(existsSync(join(dir, 'never.ts'))).toBe(false);
  });

  it.each([
    [['--bin', join(dir, 'missing')], 'no Claude Code binary at'],
    [['--bogus'], "Unknown option '--bogus'"],
  ])('%j: exit 2 with one line', (args, reason) => {
    const result = run(...args);
    expect(result).toMatchObject({ status: 2, stderr: expect.stringContaining(reason) });
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('without --bin, CLAUDE_CODE_BIN names the binary', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'models.mjs'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_CODE_BIN: join(dir, 'nowhere') },
    });
    expect(result.stderr).toContain(`no Claude Code binary at ${join(dir, 'nowhere')} (from CLAUDE_CODE_BIN)`);
  });
});
