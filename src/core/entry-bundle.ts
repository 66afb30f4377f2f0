/**
 * The bundle that holds one entry, beside hook.cjs: `node hook.cjs <name>` loads only that one (a hook's
 * start-up is its cost: no event compiles another's code); the tsup config builds one per entry. Apart from the
 * hook table so the launcher links this line alone.
 */
export function entryBundleFile(name: string): string {
  return `hook-${name}.cjs`;
}
