// Repository and user objects in the shapes GitHub uses for REST answers and webhook payloads.
import type { Repository, User } from '@octokit/webhooks-types';
import { headBranch, latestCommitEpoch } from './git-refs';
import { refsFingerprint } from './ref-fingerprint';
import { deterministicId, type RepoHandle } from './repo-store';
import { SizeCache } from './repo-size';

export interface Urls {
  /** Base of API urls (the stand-in itself). */
  apiUrl: string;
  /** Base of html urls, e.g. https://github.com. */
  htmlUrl: string;
}

export type OwnerType = 'User' | 'Organization';

/** Legacy GraphQL node id, e.g. "MDEwOlJlcG9zaXRvcnkxODY4NTMwMDI=" for Repository 186853002. */
export function nodeId(kind: string, id: string | number): string {
  return Buffer.from(`0${kind.length}:${kind}${id}`).toString('base64');
}

export function ownerId(login: string): number {
  return deterministicId(`owner:${login}`, 1_000_000, 90_000_000);
}

export function noreplyEmail(login: string): string {
  return `${ownerId(login)}+${login}@users.noreply.github.com`;
}

export function userJson(login: string, type: OwnerType, urls: Urls): User {
  const id = ownerId(login);
  const api = `${urls.apiUrl}/users/${login}`;
  return {
    login,
    id,
    node_id: nodeId(type, id),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: `${urls.htmlUrl}/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type,
    site_admin: false,
  };
}

/** Facts read from git that appear in repository objects. */
export interface RepoFacts {
  defaultBranch: string;
  /** Epoch seconds of the latest commit on any branch (or of creation for empty repos). */
  pushedAt: number;
  sizeKb: number;
}

/** Sizes of every repository the stand-ins of this process answer for (keyed by directory and creation). */
const sizes = new SizeCache();

/** Default branch and latest commit date of each repository, kept while its refs are unchanged (ref-fingerprint.ts). */
const branchFacts = new Map<string, { fingerprint: string; facts: Promise<[string, number | null]> }>();

function loadBranchFacts(dir: string): Promise<[string, number | null]> {
  const fingerprint = refsFingerprint(dir);
  const kept = branchFacts.get(dir);
  if (fingerprint !== null && kept?.fingerprint === fingerprint) return kept.facts;
  const facts = Promise.all([headBranch(dir), latestCommitEpoch(dir)]);
  if (fingerprint === null) return facts;
  branchFacts.set(dir, { fingerprint, facts });
  // A failed read is not kept: the next answer tries again.
  facts.catch(() => branchFacts.get(dir)?.facts === facts && branchFacts.delete(dir));
  return facts;
}

export async function loadRepoFacts(repo: RepoHandle): Promise<RepoFacts> {
  const [[defaultBranch, latest], sizeKb] = await Promise.all([loadBranchFacts(repo.dir), sizes.sizeKb(`${repo.dir}\0${repo.id}\0${repo.createdAt}`, repo.dir)]);
  return { defaultBranch, pushedAt: latest ?? Math.floor(Date.parse(repo.createdAt) / 1000), sizeKb };
}

export function iso(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

type Flavor = 'rest' | 'push' | 'event';

/**
 * The common repository object. `push` payloads differ from the rest: numeric created_at/pushed_at,
 * `url` is the html url, owner carries name/email, plus `stargazers` and `master_branch`.
 */
export function repoJson(repo: RepoHandle, facts: RepoFacts, urls: Urls, ownerType: OwnerType, flavor: Flavor = 'rest'): Repository {
  const full = `${repo.owner}/${repo.name}`;
  const api = `${urls.apiUrl}/repos/${full}`;
  const html = `${urls.htmlUrl}/${full}`;
  const host = new URL(urls.htmlUrl).host;
  const created = Math.floor(Date.parse(repo.createdAt) / 1000);
  const owner = userJson(repo.owner, ownerType, urls);
  const counts = { stargazers_count: 0, watchers_count: 0, forks_count: 0, open_issues_count: 0, forks: 0, open_issues: 0, watchers: 0 };
  const json: Repository = {
    id: repo.id,
    node_id: nodeId('Repository', repo.id),
    name: repo.name,
    full_name: full,
    private: repo.private,
    owner: flavor === 'push' ? { name: repo.owner, email: noreplyEmail(repo.owner), ...owner } : owner,
    html_url: html,
    description: repo.description,
    fork: false,
    url: flavor === 'push' ? html : api,
    forks_url: `${api}/forks`,
    keys_url: `${api}/keys{/key_id}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    teams_url: `${api}/teams`,
    hooks_url: `${api}/hooks`,
    issue_events_url: `${api}/issues/events{/number}`,
    events_url: `${api}/events`,
    assignees_url: `${api}/assignees{/user}`,
    branches_url: `${api}/branches{/branch}`,
    tags_url: `${api}/tags`,
    blobs_url: `${api}/git/blobs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    trees_url: `${api}/git/trees{/sha}`,
    statuses_url: `${api}/statuses/{sha}`,
    languages_url: `${api}/languages`,
    stargazers_url: `${api}/stargazers`,
    contributors_url: `${api}/contributors`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    commits_url: `${api}/commits{/sha}`,
    git_commits_url: `${api}/git/commits{/sha}`,
    comments_url: `${api}/comments{/number}`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    contents_url: `${api}/contents/{+path}`,
    compare_url: `${api}/compare/{base}...{head}`,
    merges_url: `${api}/merges`,
    archive_url: `${api}/{archive_format}{/ref}`,
    downloads_url: `${api}/downloads`,
    issues_url: `${api}/issues{/number}`,
    pulls_url: `${api}/pulls{/number}`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    labels_url: `${api}/labels{/name}`,
    releases_url: `${api}/releases{/id}`,
    deployments_url: `${api}/deployments`,
    created_at: flavor === 'push' ? created : iso(created),
    updated_at: iso(facts.pushedAt),
    pushed_at: flavor === 'push' ? facts.pushedAt : iso(facts.pushedAt),
    git_url: `git://${host}/${full}.git`,
    ssh_url: `git@${host}:${full}.git`,
    clone_url: `${html}.git`,
    svn_url: html,
    homepage: null,
    size: facts.sizeKb,
    language: null,
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    mirror_url: null,
    archived: repo.archived,
    disabled: false,
    license: null,
    is_template: false,
    web_commit_signoff_required: false,
    topics: repo.topics,
    visibility: repo.private ? 'private' : 'public',
    ...counts,
    default_branch: facts.defaultBranch,
    custom_properties: {},
  };
  if (flavor === 'push') Object.assign(json, { stargazers: 0, master_branch: facts.defaultBranch });
  if (ownerType === 'Organization' && flavor !== 'rest') json.organization = repo.owner;
  return json;
}

/** GET /repos/{owner}/{repo}: the webhook shape plus the REST-only fields. */
export function restRepoJson(repo: RepoHandle, facts: RepoFacts, urls: Urls, ownerType: OwnerType): Record<string, unknown> {
  return {
    ...repoJson(repo, facts, urls, ownerType, 'rest'),
    has_discussions: false,
    allow_forking: true,
    permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
    network_count: 0,
    subscribers_count: 0,
  };
}
