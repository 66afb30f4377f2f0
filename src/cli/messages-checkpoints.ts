/** The sentences of `checkpoints clean` (the table in messages.ts takes them in). */
const verb = (dryRun: boolean) => (dryRun ? 'would remove' : 'removed');

export const CHECKPOINT_CLEAN_MESSAGES = {
  'checkpoints.clean-needs-selection': () =>
    'checkpoints clean needs --older-than AGE, --session ID or --all (add --dry-run to see what would go)',
  'checkpoints.clean-all-alone': () => '--all cleans every session of the project: give it without --session and --older-than',
  'checkpoints.clean-only-flags': () => '--older-than and --dry-run are for checkpoints clean',
  'checkpoints.older-than-invalid': (d: { got: string }) =>
    `--older-than takes an age such as 30m, 12h or 7d, or an ISO time (got ${JSON.stringify(d.got)})`,
  'checkpoints.no-session': (d: { session: string; known: string }) =>
    `no session folder ${d.session}${d.known ? `; known: ${d.known}` : ' (this project has no checkpoints)'}`,
  'checkpoints.clean-group': (d: { dryRun: boolean; id: string; files: string }) => `${verb(d.dryRun)} ${d.id} (${d.files})`,
  'checkpoints.clean-temp': (d: { dryRun: boolean; path: string }) => `${verb(d.dryRun)} ${d.path} (an unfinished write)`,
  'checkpoints.clean-folder': (d: { dryRun: boolean; session: string }) =>
    `${verb(d.dryRun)} the session folder ${d.session}/ (${d.dryRun ? 'empty by then' : 'empty'})`,
  'checkpoints.left-alone': (d: { path: string; why: string }) => `left alone: ${d.path} (${d.why})`,
  'checkpoints.why-not-a-file': () => 'not a regular file',
  'checkpoints.why-not-mine': () => 'belongs to another user',
  'checkpoints.why-link': () => 'a symlink, not followed',
  'checkpoints.cleaned': (d: { dryRun: boolean; checkpoints: string; files: string; folders: string; root: string }) =>
    `context-ceiling: ${verb(d.dryRun)} ${d.checkpoints} (${d.files}) and ${d.folders} from ${d.root}${d.dryRun ? '; nothing was removed (--dry-run)' : ''}`,
  'checkpoints.cannot-clean': (d: { path: string; reason: string }) => `cannot clean ${d.path}: ${d.reason}`,
  'checkpoints.clean-nothing': (d: { root: string }) => `context-ceiling: nothing to clean in ${d.root}`,
} satisfies Record<string, (data: never) => string>;
