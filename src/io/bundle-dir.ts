/**
 * The folder of the running CLI bundle, `<plugin>/dist`: the hook bundles it runs
 * and install copies sit beside it, the plugin's skills one level up. The CLI is
 * one CommonJS file (tsup.config.ts), so `__dirname` is that folder.
 */
export function bundleDir(): string {
  return __dirname;
}

/** A bundle beside the running one (a worker thread's own, such as replay-worker.cjs); undefined when running from source. */
export function siblingBundle(name: string): string | undefined {
  return typeof __filename === 'string' && __filename.endsWith('.cjs') ? `${__dirname}/${name}` : undefined;
}

/** The running bundle's own file (the CLI's cli.cjs); undefined when running from source. */
export function runningBundle(): string | undefined {
  return typeof __filename === 'string' && __filename.endsWith('.cjs') ? __filename : undefined;
}
