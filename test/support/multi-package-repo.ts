import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureGit } from '../github-standin/fixture-repos';

/**
 * A git repository at <root>/<owner>/<name> built from real npm packages nobody here wrote,
 * each under packages/<package>: committed bundles (dist/, *.min.js), long minified lines,
 * binaries (icons, images), the mix an agent meets in a real monorepo. One commit on main.
 */
export async function repositoryFromPackages(root: string, owner: string, name: string, packages: string[]): Promise<{ dir: string; sha: string }> {
  const dir = join(root, owner, name);
  mkdirSync(dir, { recursive: true });
  for (const pkg of packages) cpSync(packageFolder(pkg), join(dir, 'packages', pkg), { recursive: true, dereference: true });
  await fixtureGit(dir, ['init', '-q', '-b', 'main']);
  await fixtureGit(dir, ['add', '-A', '-f']);
  await fixtureGit(dir, ['-c', 'user.name=gitdex', '-c', 'user.email=gitdex@example.com', 'commit', '-q', '-m', `Import ${packages.join(', ')}`]);
  const sha = (await fixtureGit(dir, ['rev-parse', 'HEAD'])).toString().trim();
  return { dir, sha };
}

/** The installed folder of a package, also for packages whose exports hide package.json. */
function packageFolder(pkg: string): string {
  const found = (require.resolve.paths(pkg) ?? []).map((base) => join(base, pkg)).find((folder) => existsSync(join(folder, 'package.json')));
  if (!found) throw new Error(`package ${pkg} is not installed: run npm install`);
  return found;
}
