/**
 * Every sentence the CLI commands say to people, in one table looked up by id (STYLE.md point 2).
 * Advice the guard also gives (stating the window) is reused from core/messages.ts, never rewritten.
 */
import { AUTOCOMPACT_PCT_ENV } from '../core/autocompact.js';
import { STATE_THE_WINDOW, STATE_THE_WINDOW_ADVICE } from '../core/messages.js';

const CLI_MESSAGES = {
  // main and every command's argument checks
  'unexpected-argument': (d: { arg: string }) => `unexpected argument ${JSON.stringify(d.arg)}`,

  // doctor
  'doctor.config-invalid-fix': () => 'correct the file (context-ceiling config validate shows every problem)',
  'doctor.config-warning-fix': () => 'correct or unset the variable',
  'doctor.config-valid': (d: { files: string }) => `valid (${d.files || 'defaults and environment only'})`,
  'doctor.strict-assumed': (d: { from: string }) => `strict mode (${d.from}) on an assumed window: strict blocks nothing until the window is known`,
  'doctor.strict-assumed-fix': () => `state it: ${STATE_THE_WINDOW} (install --window N writes it), or run the status line`,
  'doctor.window-known': (d: { tokens: string; from: string; basis: string }) => `${d.tokens} tokens (${d.from})${d.basis}`,
  'doctor.window-default': (d: { tokens: string; basis: string }) => `${d.tokens} tokens (default)${d.basis}: right for 200K models, five times too small for 1M-context ones`,
  'doctor.window-default-fix': () => STATE_THE_WINDOW_ADVICE,
  'doctor.window-basis': (d: { session: string }) => ` for session ${d.session}`,
  'doctor.compact-default': () => 'Claude Code compacts at its own default point (not overridden)',
  'doctor.compact-strict': () => 'strict mode, and Claude Code compacts only near the full window: in an unattended session a block lasts until then',
  'doctor.compact-strict-fix': () => `set ${AUTOCOMPACT_PCT_ENV} at or just above the ceiling (context-ceiling install --strict does)`,
  'doctor.state-ok': (d: { dir: string }) => `${d.dir} is private (0700) and yours`,
  'doctor.state-fix': () => 'remove it, or point DEV_TEAM_CONTEXT_STATE_DIR at a directory only you own',
  'doctor.node-ok': (d: { version: string }) => `Node ${d.version}`,
  'doctor.node-old': (d: { version: string }) => `Node ${d.version} is too old`,
  'doctor.node-fix': () => 'install Node.js 20 or newer',
  'doctor.settings-broken-fix': () => 'repair the file; Claude Code ignores it as it is',
  'doctor.plugin-enabled': (d: { id: string; label: string }) => `plugin ${d.id} enabled in ${d.label}: its hooks run on every event`,
  'doctor.no-hooks': () => 'no context-ceiling hooks in the project, local or user settings, and no context-ceiling plugin enabled',
  'doctor.no-hooks-fix': () => 'run context-ceiling install (or install the repository as a Claude Code plugin)',
  'doctor.runtime-absent': (d: { label: string; scope: string; dirs: string }) => `${d.label} (${d.scope}) runs ${d.dirs}/hook.cjs, which does not exist`,
  'doctor.reinstall-fix': (d: { flag: string }) => `run context-ceiling install${d.flag} again`,
  'doctor.hooks-missing': (d: { label: string; scope: string; events: string }) => `${d.label} (${d.scope}) lacks ${d.events}`,
  'doctor.install-fix': (d: { flag: string }) => `run context-ceiling install${d.flag}`,
  'doctor.hooks-ok': (d: { label: string; scope: string; count: number; dirs: string }) => `${d.label} (${d.scope}): all ${d.count} events, runtime ${d.dirs}`,

  // where Claude Code's compaction point was set (doctor and status)
  'autocompact-set-in': (d: { origin: string }) => ` Set in ${d.origin}.`,
} satisfies Record<string, (data: never) => string>;

export type CliMessageId = keyof typeof CLI_MESSAGES;

/** The sentence `id` with its placeholders filled. */
export function cliMessage<Id extends CliMessageId>(id: Id, ...data: Parameters<(typeof CLI_MESSAGES)[Id]>): string {
  return (CLI_MESSAGES[id] as (d: unknown) => string)(data[0]);
}
