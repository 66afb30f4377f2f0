/**
 * Which recovery skill a message may name, under the name it is invoked by in
 * this install: Claude Code rejects an unknown skill before any hook runs
 * (CLAUDE-CODE-FACTS.md), so naming one that is not there is a dead end.
 */
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { join } from './join-path.js';
import { claudeConfigDir } from './locate.js';

/** The recovery skill this package ships (skills/<name>/SKILL.md; install copies it). */
export const OUR_SKILL = 'context-summarization';

/** The plugin's name (plugin/.claude-plugin/plugin.json): plugin skills are invoked as `<plugin>:<skill>`. */
export const PLUGIN_NAME = 'context-ceiling';

/** A name that can only be a folder directly under a skills/ directory. */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * A name a Skill call can carry that is still one folder name: Claude Code 2.1.331 loads a folder named
 * `context-ceiling:context-summarization` under a project's skills/ for that plugin-qualified call, ahead of the plugin
 * (docs/claude-code-behaviour.md, test/e2e/skill-precedence.test.ts), so a qualified name is looked up as a folder too.
 */
const FOLDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(?::[A-Za-z0-9][A-Za-z0-9_.-]{0,63})?$/;

export type RecoverySkillFacts = {
  projectDir: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * The recovery skills the operator configured (operatorRecoverySkills): a team's own skill listed there wins
   * when it exists. The default list is not a configuration: a repository's skill that merely carries one of its
   * names (`continue`) is not ours to recommend.
   */
  recoverySkills: readonly string[];
  /** The folder of the running bundle: `<plugin root>/dist` when Claude Code runs us as a plugin. */
  runtimeDir: string | undefined;
};

/**
 * The skill to name (`context-ceiling:context-summarization` from the plugin), or undefined when none is installed.
 * A call runs the skill whose folder carries its exact name, a personal one before a project's, and either before a
 * plugin's (observed on Claude Code 2.1.331, docs/claude-code-behaviour.md), so ours is named bare only when a bare call reaches
 * it: never when the project defines a skill of that name that is not ours (projectOwnsName); then the plugin-qualified
 * name, unless the project has a folder of that exact name too (which the qualified call would run); else none.
 */
export function resolveRecoverySkill(facts: RecoverySkillFacts): string | undefined {
  const roots = [projectSkills(facts), personalSkills(facts)];
  // OUR_SKILL is a plain name: no expression to compile for it (its first use costs ~40 K instructions).
  const installed = (name: string) => (name === OUR_SKILL || PLAIN_NAME.test(name)) && roots.some((root) => hasSkill(root, name));
  const team = facts.recoverySkills.find((name) => name !== OUR_SKILL && installed(name));
  if (team) return team;
  if (installed(OUR_SKILL) && !projectOwnsName(facts, OUR_SKILL)) return OUR_SKILL;
  const qualified = `${PLUGIN_NAME}:${OUR_SKILL}`;
  return runsFromPlugin(facts) && !projectOwnsName(facts, qualified) ? qualified : undefined;
}

/**
 * Whether a Skill call of `name` would run a skill the project itself defines (`<project>/.claude/skills/<name>/
 * SKILL.md`, for a plugin-qualified `plugin:skill` too) rather than ours, a plugin's or the person's: not when a personal
 * skill of that name comes first, and not for our
 * own skill copied into the project by `install --project` when the hooks run from that install's runtime (the same
 * install put both there). The guard's I/O edge asks only for a recovery name (core/ceiling.ts resolveGate).
 */
export function projectOwnsName(facts: Pick<RecoverySkillFacts, 'projectDir' | 'home' | 'env' | 'runtimeDir'>, name: string): boolean {
  if (!FOLDER_NAME.test(name) || !hasSkill(projectSkills(facts), name) || hasSkill(personalSkills(facts), name)) return false;
  return !(name === OUR_SKILL && runsFromProjectInstall(facts));
}

// Joined by hand: stat needs no normalized path, and each node:path join of a hook's first calls runs cold (~0.1 M in all here).
const projectSkills = (facts: Pick<RecoverySkillFacts, 'projectDir'>) => `${facts.projectDir}/.claude/skills`;
const personalSkills = (facts: Pick<RecoverySkillFacts, 'home' | 'env'>) => `${claudeConfigDir(facts.env, facts.home)}/skills`;

/** The running bundle is the project's own runtime copy (`install --project`: <project>/.claude/context-ceiling/runtime). */
function runsFromProjectInstall(facts: Pick<RecoverySkillFacts, 'projectDir' | 'runtimeDir'>): boolean {
  if (!facts.runtimeDir) return false;
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return real(facts.runtimeDir) === real(join(facts.projectDir, '.claude', 'context-ceiling', 'runtime'));
}

/**
 * Claude Code sets CLAUDE_PLUGIN_ROOT for a plugin's hooks; the running bundle
 * must be that plugin's dist/ (another plugin's root says nothing about us),
 * and the plugin must carry the skill.
 */
function runsFromPlugin(facts: RecoverySkillFacts): boolean {
  const root = facts.env.CLAUDE_PLUGIN_ROOT;
  if (!root || !facts.runtimeDir || resolve(facts.runtimeDir, '..') !== resolve(root)) return false;
  return hasSkill(join(root, 'skills'), OUR_SKILL);
}

function hasSkill(root: string, name: string): boolean {
  try {
    // No exception for the usual answer (no such skill): a thrown fs error costs a hook its construction.
    return statSync(`${root}/${name}/SKILL.md`, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}
