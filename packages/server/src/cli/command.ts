/** One `duet` subcommand. `run` returns the process exit code. */
export interface Command {
  /** One line for `duet --help`. */
  summary: string
  /** The full text of `duet <command> --help`. */
  help: string
  run(argv: string[]): Promise<number>
}
