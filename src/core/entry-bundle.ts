/**
 * The bundle that holds one entry, beside hook.cjs: `node hook.cjs <name>` loads only that one (a hook's
 * start-up is its cost: no event compiles another's code); the tsup config builds one per entry. Apart from the
 * hook table so the launcher links this line alone.
 */
export function entryBundleFile(name: string): string {
  return `hook-${name}.cjs`;
}

/**
 * Whether `name` has an entry's shape (`/^[a-z]+(?:-[a-z]+)*$/`: lowercase words joined by single hyphens), so it can
 * name no other file. Spelt out rather than as that expression: the launcher is compiled from source on every run,
 * and a regular expression's first use compiles it too (~40 K instructions, measured).
 */
export function isEntryName(name: string): boolean {
  let wordStart = true;
  for (let at = 0; at < name.length; at++) {
    const c = name.charCodeAt(at);
    if (c >= 0x61 && c <= 0x7a) wordStart = false;
    else if (c === 0x2d && !wordStart) wordStart = true;
    else return false;
  }
  return name.length > 0 && !wordStart;
}
