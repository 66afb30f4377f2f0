/** The command line's shape, read the same way by the bin (cli.ts, before the CLI loads) and by main.ts. */

/** `--no-color` is global: taken from wherever it stands before a `--`, so every command accepts it. */
export function takeNoColor(argv: readonly string[]): { args: string[]; noColor: boolean } {
  const end = argv.indexOf('--') === -1 ? argv.length : argv.indexOf('--');
  const args = argv.filter((arg, i) => i >= end || arg !== '--no-color');
  return { args, noColor: args.length !== argv.length };
}

/** A command's arguments ask for its help. */
export function asksHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}
