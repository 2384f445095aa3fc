import type { GitHubStandIn } from '../../test/github-standin/server';
import type { BenchRepo } from '../setup/repos';

/**
 * Downloads a repository's tarball at its head from the stand-in and drains it: the
 * archive's cost alone, and (with the stand-in's archive cache) what makes the next
 * download of that commit a cached one, as codeload's is for a commit asked before.
 */
export async function drainTarball(standIn: GitHubStandIn, repo: BenchRepo): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(`${standIn.url}/repos/${repo.fullName}/tarball/${repo.head}`);
  if (!response.ok || !response.body) throw new Error(`tarball of ${repo.fullName}: HTTP ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return { ms: performance.now() - started, bytes };
}
