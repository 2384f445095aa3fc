// Builds a push webhook payload from what git says happened to a ref between two SHAs.
import type { Commit, PushEvent } from '@octokit/webhooks-types';
import { diffCommits } from './git-diff';
import { isAncestor, isoWithOffset, objectType, readCommit, revList, revParse } from './git-objects';
import { listRefs } from './git-refs';
import { ZERO_SHA } from './git';
import type { PayloadParties } from './payload-common';
import { loadRepoFacts, noreplyEmail, repoJson, type OwnerType, type Urls } from './repo-json';
import type { RepoHandle } from './repo-store';

export interface PushInput {
  repo: RepoHandle;
  /** Full ref, e.g. refs/heads/main. */
  ref: string;
  /** Previous SHA of the ref (40 zeros when it did not exist). */
  before: string;
  /** New SHA of the ref (40 zeros when it was deleted; a tag object for annotated tags). */
  after: string;
  urls: Urls;
  ownerType: OwnerType;
  parties: PayloadParties;
  /** At most this many commits are listed (the most recent ones); default 20. */
  maxCommits?: number;
  /** Epoch seconds of the push (default now). */
  pushedAt?: number;
}

async function commitJson(input: PushInput, sha: string, distinct: boolean): Promise<Commit> {
  const { repo } = input;
  const c = await readCommit(repo.dir, sha);
  if (!c) throw new Error(`commit ${sha} not found in ${repo.dir}`);
  const changes = await diffCommits(repo.dir, c.parents[0] ?? null, c.sha);
  const paths = (status: string): string[] => changes.filter((f) => f.status === status).map((f) => f.path);
  return {
    id: c.sha,
    tree_id: c.tree,
    distinct,
    message: c.message.replace(/\n$/, ''),
    timestamp: isoWithOffset(c.committer),
    url: `${input.urls.htmlUrl}/${repo.owner}/${repo.name}/commit/${c.sha}`,
    author: { name: c.author.name, email: c.author.email },
    committer: { name: c.committer.name, email: c.committer.email },
    added: paths('added'),
    removed: paths('removed'),
    modified: paths('modified'),
  };
}

function compareUrl(input: PushInput, created: boolean): string {
  const base = `${input.urls.htmlUrl}/${input.repo.owner}/${input.repo.name}`;
  if (created) return `${base}/compare/${input.ref.replace(/^refs\/(heads|tags)\//, '')}`;
  return `${base}/compare/${input.before.slice(0, 12)}...${input.after.slice(0, 12)}`;
}

export async function buildPushPayload(input: PushInput): Promise<PushEvent> {
  const { repo, ref, before, after } = input;
  const created = before === ZERO_SHA;
  const deleted = after === ZERO_SHA;
  const head = deleted ? null : await revParse(repo.dir, `${after}^{commit}`);
  if (!deleted && !head) throw new Error(`${after} is not a commit in ${repo.owner}/${repo.name}`);
  const branches = (await listRefs(repo.dir, 'refs/heads/')).filter((r) => r.ref !== ref);
  const others = branches.map((b) => b.commit);
  const beforeExists = !created && (await objectType(repo.dir, before)) !== null;
  const forced = !created && !deleted && head !== null && !(beforeExists && (await isAncestor(repo.dir, before, head)));

  let shas: string[] = [];
  let distinct = new Set<string>();
  if (head && ref.startsWith('refs/heads/')) {
    const fresh = await revList(repo.dir, head, others);
    distinct = new Set(fresh);
    shas = created || !beforeExists ? fresh : await revList(repo.dir, head, [before]);
  }
  const listed = shas.slice(-(input.maxCommits ?? 20));
  const commits = await Promise.all(listed.map((sha) => commitJson(input, sha, distinct.has(sha))));
  const headCommit = head ? (commits.find((c) => c.id === head) ?? (await commitJson(input, head, distinct.has(head)))) : null;
  const baseBranch = created && head ? branches.find((b) => b.commit === head) : undefined;

  const facts = await loadRepoFacts(repo);
  facts.pushedAt = input.pushedAt ?? Math.floor(Date.now() / 1000);
  const pusherLogin = input.parties.sender.login;
  return {
    ref,
    before,
    after,
    repository: repoJson(repo, facts, input.urls, input.ownerType, 'push'),
    pusher: { name: pusherLogin, email: noreplyEmail(pusherLogin) },
    ...input.parties,
    created,
    deleted,
    forced,
    base_ref: baseBranch ? baseBranch.ref : null,
    compare: compareUrl(input, created),
    commits,
    head_commit: headCommit,
  };
}
