/**
 * What the image's one entry point runs for its arguments, so `docker run gitdex status` is the
 * CLI and `docker run gitdex` is the services: no argument, `serve`, or only `--stdio` (kept for
 * older MCP setups) serve; anything else is a `gitdex` command, including an unknown one, which
 * the CLI answers with its usage error instead of a server starting.
 */
export type Entry = { run: 'serve' } | { run: 'stdio' } | { run: 'cli'; argv: string[] };

export function entryFor(argv: readonly string[]): Entry {
  if (argv.includes('--stdio')) return { run: 'stdio' };
  if (argv.length === 0 || (argv.length === 1 && argv[0] === 'serve')) return { run: 'serve' };
  return { run: 'cli', argv: [...argv] };
}
