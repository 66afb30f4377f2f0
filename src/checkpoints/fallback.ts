/**
 * When a project's checkpoint folder cannot be used, checkpoints go to the private state directory
 * (write-now.ts) and the person is told once: the writer leaves a note, the next SessionStart or
 * UserPromptSubmit claims it (an exclusive create) and says it as a systemMessage.
 */
import { join } from '../io/join-path.js';
import { renderCheckpointFallback } from '../core/guard-text.js';
import { createExclusive } from '../io/fs-safe.js';
import { readRegularText } from '../io/read-safe.js';
import { privateDirForRead } from '../io/state.js';
import type { HookConfig } from '../runtime/hook-config.js';
import { privateCheckpointsDir, privateProjectDir } from './provenance.js';

const noteOf = (config: Pick<HookConfig, 'stateDir' | 'projectDir'>) => `${privateProjectDir(config.stateDir, config.projectDir)}.fallback`;

/** Leave the note (the first reason wins); best effort: a note that cannot be written costs only the telling. */
export function claimFallbackNotice(config: Pick<HookConfig, 'stateDir' | 'projectDir' | 'debug'>, reason: string): void {
  try {
    createExclusive(noteOf(config), reason.slice(0, 1000));
  } catch (error) {
    config.debug(`the checkpoint fallback note cannot be written: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * This project's private fallback folder (`<state>/checkpoints/<project key>/`, session folders in it) when it
 * exists and can be trusted for reading (ours, not a link, nobody else can write it); else undefined.
 */
export function readablePrivateRoot(stateDir: string, projectDir: string): string | undefined {
  if (!privateDirForRead(stateDir) || !privateDirForRead(privateCheckpointsDir(stateDir))) return undefined;
  return privateDirForRead(privateProjectDir(stateDir, projectDir));
}

/** The sentence to tell the person, exactly once per project; undefined when there is nothing (more) to tell. */
export function takeFallbackNotice(config: Pick<HookConfig, 'stateDir' | 'projectDir'>): string | undefined {
  try {
    if (!privateDirForRead(privateCheckpointsDir(config.stateDir))) return undefined;
    const reason = readRegularText(noteOf(config), 4096, { noFollow: true, ownedBy: process.getuid?.() });
    if (reason === undefined || !createExclusive(`${noteOf(config)}-told`)) return undefined;
    return renderCheckpointFallback(join(privateProjectDir(config.stateDir, config.projectDir)), reason);
  } catch {
    return undefined;
  }
}
