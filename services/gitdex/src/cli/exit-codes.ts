/** What the CLI's exit status means, so scripts can act on it. */
export const EXIT = {
  ok: 0,
  /** The operation ran and failed (GitHub or an engine refused, indexing failed). */
  failed: 1,
  /** Bad usage or configuration: nothing was done. */
  usage: 2,
  /** The repository (or ref) does not exist, or the credentials cannot see it. */
  notFound: 3,
} as const;

/** An error that ends the CLI with a given status and a message for the operator. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
