/** plugin/dist/hook-pre-tool-use.cjs: the guard; a verdict that speaks loads its voice from guard-voice.cjs. */
import type { Launch } from '../launch.js';
import { runEntry } from '../main.js';
import { guardHook } from '../pre-tool-use.js';

export const runBundle = (bundleDir: string, launch: Launch): void =>
  runEntry('pre-tool-use', (services) => guardHook(services.voice), bundleDir, launch);
