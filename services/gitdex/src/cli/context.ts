import type { Env } from '@gitdex/contracts';
import type { Adapters } from '../adapters';

/** What every command gets: the configuration, the adapters, and where to write. */
export interface CliContext {
  env: Env;
  adapters: Adapters;
  out: { log(line: string): void; error(line: string): void };
}
