/**
 * The folder of the running CLI bundle, `<plugin>/dist`: the hook bundles it runs
 * and install copies sit beside it, the plugin's skills one level up. The CLI is
 * one CommonJS file (tsup.config.ts), so `__dirname` is that folder.
 */
export function bundleDir(): string {
  return __dirname;
}
