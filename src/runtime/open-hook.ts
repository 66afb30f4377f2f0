/** The opening every session hook shares, written once: parse the input, resolve the config, stop when the guard is off. */
import { parseSessionInput, type SessionInput } from '../core/hook-input.js';
import { loadHookConfig, type HookConfig } from './hook-config.js';
import { parseJson, silent, type HookOutcome } from './hook-io.js';
import type { HookHost } from './host.js';

/** Either what the handler goes on with, or the silent outcome it returns at once (with its reason). */
export type OpenedHook = { open: true; input: SessionInput; config: HookConfig } | { open: false; outcome: HookOutcome };

/**
 * `not-a-hook-input` when stdin is no session input; `admit` (checked before any file is read) may name
 * why this event is not for us; `disabled` when the policy in force turns the package off.
 */
export function openHook(stdin: string | undefined, host: HookHost, admit?: (input: SessionInput) => string | undefined): OpenedHook {
  const input = parseSessionInput(parseJson(stdin));
  if (!input) return { open: false, outcome: silent('not-a-hook-input') };
  const refused = admit?.(input);
  if (refused !== undefined) return { open: false, outcome: silent(refused) };
  const config = loadHookConfig(host, input.cwd);
  if (!config.policy.enabled) return { open: false, outcome: silent('disabled') };
  return { open: true, input, config };
}
