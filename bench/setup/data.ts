import { join } from 'node:path';
import type { BenchConfig } from '../config';
import { largeCorpus, mediumCorpus, smallCorpus, type Corpus } from '../data/corpora';
import { copyRepo, createRepo, type BenchRepo } from './repos';

export interface BenchData {
  small: BenchRepo;
  medium: BenchRepo;
  /** Built only when a suite indexes it (indexing): it is most of the data's making time. */
  large: BenchRepo | null;
  /** Small repositories the freshness pushes go to (copies of the small one). */
  fresh: BenchRepo[];
  corpora: Corpus[];
}

/**
 * Builds the repositories of a run under `root` from installed packages and system sources:
 * the large one only when `needs.large` (the indexing suite), the freshness copies only when
 * `needs.fresh`, so `--only=reads,suggest` does not spend minutes on data it does not read.
 */
export async function prepareData(
  config: BenchConfig,
  root: string,
  workDir: string,
  log: (line: string) => void,
  needs: { large: boolean; fresh: boolean } = { large: true, fresh: true },
): Promise<BenchData> {
  let started = Date.now();
  const small = smallCorpus();
  const medium = mediumCorpus();
  const large = needs.large ? largeCorpus(config.largeFiles, { workDir: join(workDir, 'sources') }) : null;
  log(`data: corpora read in ${((Date.now() - started) / 1000).toFixed(1)} s (large: ${large ? `${large.files.length} files, ${(large.bytes / 1e6).toFixed(0)} MB` : 'not needed by these suites'})`);
  started = Date.now();
  const repos = {
    small: await createRepo(root, 'small', small),
    medium: await createRepo(root, 'medium', medium),
    large: large ? await createRepo(root, 'large', large) : null,
  };
  const fresh: BenchRepo[] = [];
  if (needs.fresh) for (let i = 0; i < config.freshness.repositories; i += 1) fresh.push(await copyRepo(root, repos.small, `fresh-${String(i).padStart(2, '0')}`));
  log(`data: git repositories committed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { ...repos, fresh, corpora: large ? [small, medium, large] : [small, medium] };
}
