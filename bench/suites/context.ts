import type { GitHubStandIn } from '../../test/github-standin/server';
import type { BenchConfig } from '../config';
import type { Results } from '../report/model';
import type { Engines } from '../setup/engines';
import type { BenchRepo } from '../setup/repos';

/** What every suite gets: the configuration, the data, the stand-in, and where results go. */
export interface SuiteContext {
  config: BenchConfig;
  results: Results;
  standIn: GitHubStandIn;
  /** Root of the stand-in's repositories. */
  root: string;
  /** Scratch folder of this run. */
  workDir: string;
  engines: Engines | null;
  repos: { small: BenchRepo; medium: BenchRepo; large: BenchRepo | null; fresh: BenchRepo[] };
  log(line: string): void;
}

export const ZERO_SHA = '0'.repeat(40);

/** The large repository, which only runs that include the indexing suite build. */
export function largeRepo(ctx: SuiteContext): BenchRepo {
  if (!ctx.repos.large) throw new Error('the large repository was not built: only runs with the indexing suite build it');
  return ctx.repos.large;
}
