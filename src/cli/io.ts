/** What a CLI command may touch; main() builds the real one, tests can build their own. */
import minimist from 'minimist';

export type CliIO = {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  stdoutIsTTY: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
};

/** Bad arguments or input: main prints `context-ceiling: <message>` and the usage line, exit 1. */
export class UsageError extends Error {
  constructor(message: string, readonly usage?: string) {
    super(message);
  }
}

/** A failure that is not the user's typing (invalid config file, no transcript): message only, exit 1. */
export class CliError extends Error {}

export type Command = {
  summary: string;
  usage: string;
  help: string;
  run: (args: string[], io: CliIO) => number | Promise<number>;
};

type Flags = { string?: string[]; boolean?: string[]; alias?: Record<string, string> };

/**
 * minimist with declared flags; unknown flags are an error, and strings stay
 * strings (minimist would turn `040` into 40 unless told).
 */
export function parseFlags(args: string[], flags: Flags, usage: string) {
  const known = new Set([...(flags.string ?? []), ...(flags.boolean ?? []), ...Object.keys(flags.alias ?? {}), ...Object.values(flags.alias ?? {}), '_', '--']);
  const unknown: string[] = [];
  const parsed = minimist(args, {
    string: flags.string ?? [],
    boolean: [...(flags.boolean ?? []), 'help'],
    alias: { h: 'help', ...(flags.alias ?? {}) },
    unknown: (arg) => {
      if (arg.startsWith('-')) unknown.push(arg);
      return true;
    },
  });
  known.add('help');
  known.add('h');
  if (unknown.length > 0) throw new UsageError(`unknown option ${unknown[0]}`, usage);
  for (const name of flags.string ?? []) {
    const value = parsed[name];
    if (Array.isArray(value)) throw new UsageError(`--${name} given more than once`, usage);
    if (name in parsed && value === '' && args.some((a) => a === `--${name}`)) throw new UsageError(`--${name} needs a value`, usage);
  }
  return parsed;
}
