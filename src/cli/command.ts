/** What a CLI command is and what it may touch; main() builds the real CliIO, tests can build their own. */

export type CliIO = {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  stdoutIsTTY: boolean;
  /** Whether standard error is a terminal: a progress bar (\r redraws) goes there only then. */
  stderrIsTTY?: boolean | undefined;
  /** `--no-color` was given; main() takes it from any command's arguments. */
  noColor?: boolean | undefined;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Standard input, read whole (size-capped); undefined when there is none or it cannot be read. */
  readStdin: () => string | undefined;
};

/** A command's one-line summary lives in main.ts's table only (`--help` lists them without loading every command). */
export type Command = {
  usage: string;
  help: string;
  run: (args: string[], io: CliIO) => number | Promise<number>;
};
