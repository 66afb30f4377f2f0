/**
 * The folder of the running CLI bundle, `<plugin>/dist`: the hook bundles it runs
 * and install copies sit beside it, the plugin's skills one level up. The CLI is
 * one CommonJS file (tsup.config.ts), so `__dirname` is that folder.
 */
export function bundleDir(): string {
  return __dirname;
}

/** The running bundle itself (the CLI's `cli.cjs`), for worker threads that run it again; undefined when running from source. */
export function bundleFile(): string | undefined {
  return typeof __filename === 'string' && __filename.endsWith('.cjs') ? __filename : undefined;
}
