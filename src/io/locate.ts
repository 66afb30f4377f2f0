/** Finds a project's transcripts the way Claude Code stores them: ~/.claude/projects/<dashed cwd>/<session>.jsonl. */
import { readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { join } from './join-path.js';

/** Claude Code names a project's folder by its absolute path with every non-alphanumeric character turned into "-". */
export function projectFolderName(projectDir: string): string {
  return resolve(projectDir).replace(/[^a-zA-Z0-9]/g, '-');
}

export function claudeConfigDir(env: Readonly<Record<string, string | undefined>>, home: string): string {
  return env.CLAUDE_CONFIG_DIR || join(home, '.claude');
}

export function projectTranscriptDir(env: Readonly<Record<string, string | undefined>>, home: string, projectDir: string): string {
  return join(claudeConfigDir(env, home), 'projects', projectFolderName(projectDir));
}

/** The most recently modified top-level transcript in `dir` (subagent files live deeper and are ignored). */
export function newestTranscript(dir: string): string | undefined {
  let best: { path: string; mtime: number } | undefined;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const path = join(dir, name);
    try {
      const stat = statSync(path);
      if (stat.isFile() && (!best || stat.mtimeMs > best.mtime)) best = { path, mtime: stat.mtimeMs };
    } catch {
      // vanished while listing
    }
  }
  return best?.path;
}

/** `<session>.jsonl` in this project's folder, else in any project folder. */
export function findSessionTranscript(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
  projectDir: string,
  sessionId: string,
): string | undefined {
  const file = `${sessionId}.jsonl`;
  const own = join(projectTranscriptDir(env, home, projectDir), file);
  if (isFile(own)) return own;
  const projects = join(claudeConfigDir(env, home), 'projects');
  let folders: string[];
  try {
    folders = readdirSync(projects);
  } catch {
    return undefined;
  }
  return folders.map((folder) => join(projects, folder, file)).find(isFile);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
