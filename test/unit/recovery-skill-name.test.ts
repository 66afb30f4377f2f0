import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectOwnsName, resolveRecoverySkill } from '../../src/io/recovery-skill.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'recovery-skill-')));
  mkdirSync(join(root, 'home'));
  mkdirSync(join(root, 'project'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const skill = (dir: string, name: string) => {
  mkdirSync(join(root, dir, name), { recursive: true });
  writeFileSync(join(root, dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: d\n---\n`);
};
const facts = (runtimeDir?: string) => ({
  projectDir: join(root, 'project'),
  home: join(root, 'home'),
  env: {},
  recoverySkills: [] as string[],
  runtimeDir,
});
const PROJECT_RUNTIME = () => join(root, 'project', '.claude', 'context-ceiling', 'runtime');

describe('projectOwnsName: would a bare call run a skill the project itself defines?', () => {
  it('a project skill under the name, nothing of the person’s: yes', () => {
    skill('project/.claude/skills', 'continue');
    expect(projectOwnsName(facts(), 'continue')).toBe(true);
    expect(projectOwnsName(facts(), 'review-summary')).toBe(false);
  });

  it('a personal skill of that name comes first: no', () => {
    skill('project/.claude/skills', 'continue');
    skill('home/.claude/skills', 'continue');
    expect(projectOwnsName(facts(), 'continue')).toBe(false);
  });

  it('our skill copied by install --project, with the hooks running from that install’s runtime (reached through a link too): ours', () => {
    skill('project/.claude/skills', 'context-summarization');
    expect(projectOwnsName(facts(), 'context-summarization')).toBe(true);
    expect(projectOwnsName(facts(join(root, 'elsewhere', 'dist')), 'context-summarization')).toBe(true);
    mkdirSync(PROJECT_RUNTIME(), { recursive: true });
    expect(projectOwnsName(facts(PROJECT_RUNTIME()), 'context-summarization')).toBe(false);
    symlinkSync(PROJECT_RUNTIME(), join(root, 'runtime-link'));
    expect(projectOwnsName(facts(join(root, 'runtime-link')), 'context-summarization')).toBe(false);
    expect(resolveRecoverySkill(facts(PROJECT_RUNTIME()))).toBe('context-summarization');
  });

  it('a name that cannot be a skill folder is never looked up', () => {
    expect(projectOwnsName(facts(), '../../etc')).toBe(false);
    expect(projectOwnsName(facts(), 'a:b:c')).toBe(false);
    expect(projectOwnsName(facts(), 'context-ceiling:../x')).toBe(false);
  });

  it('a plugin-qualified name is one folder name: a repository folder of that name answers the qualified call (2.1.331)', () => {
    skill('project/.claude/skills', 'context-ceiling:context-summarization');
    expect(projectOwnsName(facts(), 'context-ceiling:context-summarization')).toBe(true);
    expect(projectOwnsName(facts(), 'context-summarization')).toBe(false);
    skill('home/.claude/skills', 'context-ceiling:context-summarization');
    expect(projectOwnsName(facts(), 'context-ceiling:context-summarization')).toBe(false);
  });
});

describe('resolveRecoverySkill names ours only where a bare call reaches it', () => {
  it('a repository’s context-summarization, hooks from elsewhere and no plugin: none (the way out is /compact)', () => {
    skill('project/.claude/skills', 'context-summarization');
    expect(resolveRecoverySkill(facts(join(root, 'elsewhere', 'dist')))).toBeUndefined();
  });

  it('the same with the plugin this bundle runs from: plugin-qualified', () => {
    skill('project/.claude/skills', 'context-summarization');
    skill('plugin/skills', 'context-summarization');
    const run = { ...facts(join(root, 'plugin', 'dist')), env: { CLAUDE_PLUGIN_ROOT: join(root, 'plugin') } };
    expect(resolveRecoverySkill(run)).toBe('context-ceiling:context-summarization');
  });

  it('the plugin alone: plugin-qualified; a repository folder named like the qualified skill too: none (that call would run the repository’s)', () => {
    skill('plugin/skills', 'context-summarization');
    const run = { ...facts(join(root, 'plugin', 'dist')), env: { CLAUDE_PLUGIN_ROOT: join(root, 'plugin') } };
    expect(resolveRecoverySkill(run)).toBe('context-ceiling:context-summarization');
    skill('project/.claude/skills', 'context-ceiling:context-summarization');
    expect(resolveRecoverySkill(run)).toBeUndefined();
  });

  it('a personal skill under our name comes before the project’s: named bare', () => {
    skill('project/.claude/skills', 'context-summarization');
    skill('home/.claude/skills', 'context-summarization');
    expect(resolveRecoverySkill(facts(join(root, 'elsewhere', 'dist')))).toBe('context-summarization');
  });
});
