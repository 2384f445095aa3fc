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
  repos: { small: BenchRepo; medium: BenchRepo; large: BenchRepo; fresh: BenchRepo[] };
  log(line: string): void;
}

export const ZERO_SHA = '0'.repeat(40);
