// Reads refs (branches, tags) and repository-level facts (HEAD branch, size).
import { git, gitText, isSafeRefName, runGit } from './git';
import type { ObjectType } from './git-objects';

export interface RefInfo {
  /** Full ref name, e.g. refs/heads/main. */
  ref: string;
  /** Object the ref points at (a tag object for annotated tags). */
  sha: string;
  type: ObjectType;
  /** Commit the ref finally points at (peeled tags). */
  commit: string;
}

/** Lists refs under `prefix` (e.g. "refs/heads/"), sorted by name like GitHub. */
export async function listRefs(dir: string, prefix = 'refs/'): Promise<RefInfo[]> {
  const format = '%(refname)%00%(objectname)%00%(objecttype)%00%(*objectname)';
  const out = await git(dir, ['for-each-ref', `--format=${format}`, '--sort=refname', prefix]);
  return out
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [ref = '', sha = '', type = 'commit', peeled = ''] = line.split('\0');
      return { ref, sha, type: type as ObjectType, commit: peeled || sha };
    });
}

export interface BranchInfo {
  name: string;
  sha: string;
}

export async function listBranches(dir: string): Promise<BranchInfo[]> {
  const refs = await listRefs(dir, 'refs/heads/');
  return refs.map((r) => ({ name: r.ref.slice('refs/heads/'.length), sha: r.commit }));
}

/** Current object id of a full ref, or null when it does not exist. */
export async function readRef(dir: string, ref: string): Promise<RefInfo | null> {
  if (!isSafeRefName(ref)) return null;
  const refs = await listRefs(dir, ref);
  return refs.find((r) => r.ref === ref) ?? null;
}

export async function branchSha(dir: string, branch: string): Promise<string | null> {
  return (await readRef(dir, `refs/heads/${branch}`))?.commit ?? null;
}

/** Name of the branch HEAD points at (may be unborn in an empty repository). */
export async function headBranch(dir: string): Promise<string> {
  const result = await runGit(dir, ['symbolic-ref', '--short', '-q', 'HEAD']);
  const name = result.stdout.toString('utf8').trim();
  return result.code === 0 && name !== '' ? name : 'main';
}

/** GitHub calls a repository without any branch "empty". */
export async function isEmptyRepo(dir: string): Promise<boolean> {
  return (await listRefs(dir, 'refs/heads/')).length === 0;
}

/** Approximate repository size in KiB (loose objects plus packs), like GitHub's `size`. */
export async function repoSizeKb(dir: string): Promise<number> {
  const out = await gitText(dir, ['count-objects', '-v']);
  let total = 0;
  for (const line of out.split('\n')) {
    const [key, value] = line.split(': ');
    if (key === 'size' || key === 'size-pack') total += Number(value) || 0;
  }
  return total;
}

/** Latest committer date (epoch seconds) over all branch heads, or null for empty repos. */
export async function latestCommitEpoch(dir: string): Promise<number | null> {
  const out = await gitText(dir, ['for-each-ref', '--sort=-committerdate', '--count=1', '--format=%(committerdate:unix)', 'refs/heads/']);
  return out === '' ? null : Number(out);
}
