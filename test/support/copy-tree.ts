import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureGit } from '../github-standin/fixture-repos';

/**
 * Makes a git repository at <root>/<owner>/<name> from a folder of real files nobody
 * here wrote (e.g. a package in node_modules), committed as one commit on main.
 */
export async function repositoryFromFolder(root: string, owner: string, name: string, source: string): Promise<{ dir: string; sha: string }> {
  const dir = join(root, owner, name);
  mkdirSync(dir, { recursive: true });
  cpSync(source, dir, { recursive: true, dereference: true });
  await fixtureGit(dir, ['init', '-q', '-b', 'main']);
  await fixtureGit(dir, ['add', '-A', '-f']);
  await fixtureGit(dir, ['-c', 'user.name=gitdex', '-c', 'user.email=gitdex@example.com', 'commit', '-q', '-m', `Import ${source}`]);
  const sha = (await fixtureGit(dir, ['rev-parse', 'HEAD'])).toString().trim();
  return { dir, sha };
}
