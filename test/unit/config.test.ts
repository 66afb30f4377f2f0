import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/io/config.js';
import { parsePolicyText } from '../../src/io/policy-parse.js';

let root: string;
let home: string;
let project: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cc-config-'));
  home = join(root, 'home');
  project = join(root, 'project');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(join(project, '.claude'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const userFile = () => join(home, '.claude', 'context-ceiling.json');
const projectFile = () => join(project, '.claude', 'context-ceiling.json');
const load = (env: Record<string, string> = {}) => loadConfig({ env, projectDir: project, home }, parsePolicyText);

describe('loadConfig', () => {
  it('precedence: env > DEV_TEAM_CONTEXT_POLICY > project > user > preset > default', () => {
    writeFileSync(userFile(), JSON.stringify({ extends: 'strict-ci', ceilingPct: 30, window: 300_000, tiers: { warningPct: 60 } }));
    writeFileSync(projectFile(), JSON.stringify({ ceilingPct: 35, window: 400_000 }));
    const explicit = join(root, 'ci-policy.json');
    writeFileSync(explicit, JSON.stringify({ window: 500_000 }));
    const config = load({ DEV_TEAM_CONTEXT_POLICY: explicit, DEV_TEAM_CONTEXT_CEILING_PCT: '45' });
    expect(config.problems).toEqual([]);
    expect(config.policy).toMatchObject({ strict: true, ceilingPct: 45, window: 500_000, tiers: { warningPct: 60, criticalPct: 80 } });
    expect(config.sources.strict).toEqual({ layer: 'preset', detail: `strict-ci, extended by ${userFile()}` });
    expect(config.sources.window).toEqual({ layer: 'policy', detail: explicit });
    expect(config.sources.ceilingPct).toEqual({ layer: 'env' });
    expect(config.sources['tiers.warningPct']).toEqual({ layer: 'user', detail: userFile() });
  });

  it('a relative DEV_TEAM_CONTEXT_POLICY is resolved against the project', () => {
    writeFileSync(join(project, 'ci.json'), JSON.stringify({ strict: true }));
    expect(load({ DEV_TEAM_CONTEXT_POLICY: 'ci.json' }).policy.strict).toBe(true);
  });

  it('a project preset beats the user file (the preset sits just under the file that extends it)', () => {
    writeFileSync(userFile(), JSON.stringify({ strict: false }));
    writeFileSync(projectFile(), JSON.stringify({ extends: 'strict-ci' }));
    expect(load().policy.strict).toBe(true);
  });

  it('an invalid file is ignored, the other layers are kept, and the problem is named', () => {
    writeFileSync(userFile(), JSON.stringify({ ceilingPct: 30 }));
    writeFileSync(projectFile(), JSON.stringify({ ceilingPct: 300, strict: 'yes' }));
    const config = load();
    expect(config.policy.ceilingPct).toBe(30);
    expect(config.policy.strict).toBe(false);
    expect([...config.problems].sort()).toEqual([
      `${projectFile()}: ceilingPct: must be at most 100`,
      `${projectFile()}: strict: must be a boolean`,
    ]);
    expect(config.files.find((f) => f.role === 'project')?.state).toBe('invalid');
  });

  it('broken JSON is a problem, not a crash', () => {
    writeFileSync(projectFile(), '{"ceilingPct": 30,');
    const config = load();
    expect(config.policy.ceilingPct).toBe(40);
    expect(config.problems[0]).toMatch(new RegExp(`^${projectFile().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON`));
  });

  it('only the user file or the env may set stateDir; a project file’s is left out with a warning', () => {
    writeFileSync(userFile(), JSON.stringify({ stateDir: '/tmp/user-state' }));
    writeFileSync(projectFile(), JSON.stringify({ stateDir: '/tmp/evil', ceilingPct: 30 }));
    const config = load();
    expect(config.policy).toMatchObject({ stateDir: '/tmp/user-state', ceilingPct: 30 });
    expect(config.warnings).toEqual([
      `${projectFile()}: stateDir ignored: only DEV_TEAM_CONTEXT_STATE_DIR or ~/.claude/context-ceiling.json may set the state directory`,
    ]);
    expect(load({ DEV_TEAM_CONTEXT_STATE_DIR: '/tmp/env-state' }).policy.stateDir).toBe('/tmp/env-state');
  });

  it('a missing DEV_TEAM_CONTEXT_POLICY file is a problem', () => {
    expect(load({ DEV_TEAM_CONTEXT_POLICY: '/nope/p.json' }).problems).toEqual([
      '/nope/p.json: file not found (named by DEV_TEAM_CONTEXT_POLICY)',
    ]);
  });

  it('a directory where the file should be is reported', () => {
    mkdirSync(projectFile());
    expect(load().problems[0]).toMatch(/cannot be read \(ENOTREG\)/);
  });
});

describe('parsePolicyText', () => {
  it.each([
    ['unknown keys (typos) are errors', { ceilingPC: 30 }, ['p: unknown key "ceilingPC"']],
    [
      'extends must name a preset',
      { extends: 'nope' },
      ['p: extends: must be one of "default", "strict-ci", "large-window", "strict-skills"'],
    ],
    ['tool actions are checked', { tools: { Skill: 'deny' } }, ['p: tools.Skill: must be one of "auto", "warn", "block", "off"']],
    ['window must be a whole number', { window: 1.5 }, ['p: window: must be a whole number']],
    ['recovery skills cannot be empty', { recoverySkills: [] }, ['p: recoverySkills: must have at least 1 entry']],
    ['recovery skill names have no spaces', { recoverySkills: ['a b'] }, ['p: recoverySkills[0]: must be a name without spaces or commas']],
    [
      'tiers must rise',
      { tiers: { criticalPct: 60 } },
      ['p: tiers: must rise warningPct < criticalPct < emergencyPct (with defaults filled in: 70, 60, 88)'],
    ],
    ['the root must be an object', [1], ['p: must be an object']],
  ])('%s', (_name, value, problems) => {
    expect(parsePolicyText(JSON.stringify(value), 'p')).toEqual({ kind: 'invalid', problems });
  });

  it('accepts $schema and every documented key', () => {
    const result = parsePolicyText(
      JSON.stringify({
        $schema: './schema.json',
        extends: 'default',
        enabled: true,
        strict: true,
        ceilingPct: 50,
        window: 1_000_000,
        tools: { Skill: 'block' },
        recoverySkills: ['continue'],
        tiers: { warningPct: 60 },
        maxScanBytes: 1_048_576,
        stateDir: '/tmp/x',
        debug: false,
      }),
      'p',
    );
    expect(result.kind).toBe('ok');
  });
});
