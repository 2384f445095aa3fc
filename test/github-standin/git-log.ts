// `git log` of a commit in one git process: what GitHub's commit list (REST) and Commit.history
// (GraphQL) answer, in git's default order and, with a path, git's default history simplification.
import { git } from './git';
import { parseCommit, type CommitInfo } from './git-objects';

/** Commits of `git log head [-- path]`, `skip` first left out, at most `max`. */
export async function logCommits(dir: string, head: string, options: { skip: number; max: number; path?: string }): Promise<CommitInfo[]> {
  const args = ['log', '-z', '--format=raw', `--skip=${options.skip}`, `--max-count=${options.max}`, head, '--'];
  if (options.path) args.push(options.path);
  const out = (await git(dir, args)).toString('utf8');
  return out
    .split('\0')
    .filter((record) => record.startsWith('commit '))
    .map((record) => {
      const eol = record.indexOf('\n');
      const sha = record.slice('commit '.length, eol).trim();
      return rawLogCommit(sha, record.slice(eol + 1));
    });
}

/** `--format=raw` indents the message by four spaces; parseCommit wants it as `cat-file` gives it. */
function rawLogCommit(sha: string, raw: string): CommitInfo {
  const split = raw.indexOf('\n\n');
  const header = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 2);
  const message = body
    .split('\n')
    .map((line) => (line.startsWith('    ') ? line.slice(4) : line))
    .join('\n');
  return parseCommit(sha, `${header}\n\n${message}`);
}
