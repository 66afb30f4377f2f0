/** The hook launcher's compile cache: only in a private state directory, only where Node has one. */
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CompileCacheModule, enableCompileCache } from '../../src/hooks/launch.js';

function recorder(): CompileCacheModule & { dirs: string[] } {
  const dirs: string[] = [];
  return { dirs, enableCompileCache: (dir: string) => dirs.push(dir) };
}

function privateDir(parent: string, name: string, mode = 0o700): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, mode);
  return dir;
}

describe('enableCompileCache', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-launch-'));

  it('keeps the cache in the private state directory the environment names', () => {
    const state = privateDir(root, 'state-env');
    const node = recorder();
    expect(enableCompileCache({ DEV_TEAM_CONTEXT_STATE_DIR: state, HOME: root }, node)).toBe(join(state, 'compile-cache'));
    expect(node.dirs).toEqual([join(state, 'compile-cache')]);
  });

  it('else in $XDG_STATE_HOME/context-ceiling, else ~/.local/state/context-ceiling (a relative state dir is ignored)', () => {
    const xdg = join(root, 'xdg');
    const fromXdg = privateDir(xdg, 'context-ceiling');
    expect(enableCompileCache({ XDG_STATE_HOME: xdg, HOME: root }, recorder())).toBe(join(fromXdg, 'compile-cache'));
    const home = join(root, 'home');
    const fromHome = privateDir(join(home, '.local', 'state'), 'context-ceiling');
    expect(enableCompileCache({ DEV_TEAM_CONTEXT_STATE_DIR: 'relative/state', HOME: home }, recorder())).toBe(
      join(fromHome, 'compile-cache'),
    );
  });

  it('does nothing on a Node without module.enableCompileCache (Node 20, Bun)', () => {
    const state = privateDir(root, 'state-old-node');
    expect(enableCompileCache({ DEV_TEAM_CONTEXT_STATE_DIR: state }, {})).toBeUndefined();
  });

  it('never keeps code where it cannot trust the folder: missing, open to others, or a symlink', () => {
    const node = recorder();
    expect(enableCompileCache({ DEV_TEAM_CONTEXT_STATE_DIR: join(root, 'missing') }, node)).toBeUndefined();
    const open = privateDir(root, 'state-open', 0o777);
    expect(enableCompileCache({ DEV_TEAM_CONTEXT_STATE_DIR: open }, node)).toBeUndefined();
    const target = privateDir(root, 'state-target');
    symlinkSync(target, join(root, 'state-link'));
    expect(enableCompileCache({ DEV_TEAM_CONTEXT_STATE_DIR: join(root, 'state-link') }, node)).toBeUndefined();
    expect(node.dirs).toEqual([]);
  });

  it('a cache that fails to start is no cache: the hook runs on', () => {
    const state = privateDir(root, 'state-throws');
    const failing: CompileCacheModule = {
      enableCompileCache: () => {
        throw new Error('EACCES');
      },
    };
    expect(enableCompileCache({ DEV_TEAM_CONTEXT_STATE_DIR: state }, failing)).toBeUndefined();
  });
});
