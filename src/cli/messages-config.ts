/** The sentences of `config set` and `config unset` (the table in messages.ts takes them in). */
export const CONFIG_WRITE_MESSAGES = {
  'config.set-needs-key-value': () => 'config set needs a KEY and a VALUE',
  'config.unset-needs-key': () => 'config unset needs exactly one KEY',
  'config.one-file': () => 'choose --user or --project, not both',
  'config.scope-for-writes': () => '--user and --project choose the file config set and unset write',
  'config.unknown-edit-key': (d: { key: string; keys: string }) => `unknown key "${d.key}"; keys are ${d.keys}`,
  'config.bad-value': (d: { key: string; value: string; why: string }) => `${d.key}: ${JSON.stringify(d.value)} refused: ${d.why}`,
  'config.tool-action': (d: { actions: string }) => `expected an action, one of ${d.actions}`,
  'config.preset-name': (d: { presets: string }) => `expected a preset, one of ${d.presets}`,
  'config.debug-on-off': () => 'expected on or off (a file for diagnostics is named by DEV_TEAM_CONTEXT_DEBUG only)',
  'config.layer-refused': (d: { path: string; key: string; rule: string }) => `${d.path}: ${d.key} not set: ${d.rule}`,
  'config.would-be-invalid': (d: { path: string }) => `${d.path} was not changed: it would not be valid:`,
  'config.file-symlink': (d: { path: string }) =>
    `${d.path} is a symlink; config does not write through it (edit its target yourself, or replace the link with a file); nothing was changed`,
  'config.file-not-file': (d: { path: string }) => `${d.path} is not a regular file; nothing was changed`,
  'config.file-not-ours': (d: { path: string; uid: number }) => `${d.path} belongs to uid ${d.uid}, not you; nothing was changed`,
  'config.file-not-json': (d: { path: string; reason: string }) =>
    `${d.path}: not valid JSON (${d.reason}); fix or remove it; nothing was changed`,
  'config.file-not-object': (d: { path: string }) => `${d.path}: not a JSON object; fix or remove it; nothing was changed`,
  'config.file-lossy': (d: { path: string; loss: string }) =>
    `${d.path}: ${d.loss}, which rewriting would lose; fix that first; nothing was changed`,
  'config.leaves-project': (d: { path: string; real: string }) =>
    `${d.path} leads out of the project (to ${d.real}); config writes only inside the project; nothing was changed`,
  'config.cannot-write': (d: { path: string; reason: string }) => `cannot write ${d.path}: ${d.reason}; nothing was changed`,
  'config.set': (d: { key: string; value: string; path: string; scope: string; before: string | undefined }) =>
    `context-ceiling: set ${d.key} to ${d.value} in ${d.path} (${d.scope} file; ${d.before === undefined ? 'it was not set there' : `it was ${d.before}`})`,
  'config.set-unchanged': (d: { key: string; value: string; path: string; scope: string }) =>
    `context-ceiling: ${d.key} is already ${d.value} in ${d.path} (${d.scope} file); nothing changed`,
  'config.unset': (d: { key: string; path: string; scope: string; before: string }) =>
    `context-ceiling: removed ${d.key} from ${d.path} (${d.scope} file; it was ${d.before})`,
  'config.unset-absent': (d: { key: string; path: string; scope: string }) =>
    `context-ceiling: ${d.key} is not set in ${d.path} (${d.scope} file); nothing changed`,
  'config.in-force': (d: { row: string }) => `in force: ${d.row}`,
} satisfies Record<string, (data: never) => string>;
