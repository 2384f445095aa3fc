// Commit, branch and ref objects in GitHub's REST shapes.
import type { FileChange } from './git-diff';
import { isoUtc, type CommitInfo, type Person } from './git-objects';
import type { RefInfo } from './git-refs';
import { nodeId, type Urls } from './repo-json';
import type { RepoHandle } from './repo-store';

/** Everything needed to build urls for one repository. */
export interface RepoUrls {
  api: string;
  html: string;
  repoId: number;
}

export function repoUrls(repo: RepoHandle, urls: Urls): RepoUrls {
  const full = `${repo.owner}/${repo.name}`;
  return { api: `${urls.apiUrl}/repos/${full}`, html: `${urls.htmlUrl}/${full}`, repoId: repo.id };
}

function person(p: Person): { name: string; email: string; date: string } {
  return { name: p.name, email: p.email, date: isoUtc(p) };
}

const UNSIGNED = { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null };

/** GET /repos/{owner}/{repo}/git/commits/{sha} */
export function gitCommitJson(u: RepoUrls, c: CommitInfo): Record<string, unknown> {
  return {
    sha: c.sha,
    node_id: nodeId('Commit', `${u.repoId}:${c.sha}`),
    url: `${u.api}/git/commits/${c.sha}`,
    html_url: `${u.html}/commit/${c.sha}`,
    author: person(c.author),
    committer: person(c.committer),
    tree: { sha: c.tree, url: `${u.api}/git/trees/${c.tree}` },
    message: c.message.replace(/\n$/, ''),
    parents: c.parents.map((sha) => ({ sha, url: `${u.api}/git/commits/${sha}`, html_url: `${u.html}/commit/${sha}` })),
    verification: UNSIGNED,
  };
}

/** The `files` entries of GET /repos/{owner}/{repo}/commits/{ref} (with patches) and compare (without). */
export function fileJson(u: RepoUrls, ref: string, f: FileChange): Record<string, unknown> {
  const path = f.path.split('/').map(encodeURIComponent).join('/');
  return {
    sha: f.sha,
    filename: f.path,
    status: f.status,
    ...(f.previousPath !== undefined ? { previous_filename: f.previousPath } : {}),
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: `${u.html}/blob/${ref}/${path}`,
    raw_url: `${u.html}/raw/${ref}/${path}`,
    contents_url: `${u.api}/contents/${path}?ref=${ref}`,
    ...(f.patch !== undefined ? { patch: f.patch } : {}),
  };
}

/** GET /repos/{owner}/{repo}/commits/{ref} (author/committer GitHub users are unknown: null). */
export function restCommitJson(u: RepoUrls, c: CommitInfo, files?: FileChange[]): Record<string, unknown> {
  const json: Record<string, unknown> = {
    sha: c.sha,
    node_id: nodeId('Commit', `${u.repoId}:${c.sha}`),
    commit: {
      author: person(c.author),
      committer: person(c.committer),
      message: c.message.replace(/\n$/, ''),
      tree: { sha: c.tree, url: `${u.api}/git/trees/${c.tree}` },
      url: `${u.api}/git/commits/${c.sha}`,
      comment_count: 0,
      verification: UNSIGNED,
    },
    url: `${u.api}/commits/${c.sha}`,
    html_url: `${u.html}/commit/${c.sha}`,
    comments_url: `${u.api}/commits/${c.sha}/comments`,
    author: null,
    committer: null,
    parents: c.parents.map((sha) => ({ sha, url: `${u.api}/commits/${sha}`, html_url: `${u.html}/commit/${sha}` })),
  };
  if (files) {
    const additions = files.reduce((n, f) => n + f.additions, 0);
    const deletions = files.reduce((n, f) => n + f.deletions, 0);
    json.stats = { total: additions + deletions, additions, deletions };
    json.files = files.slice(0, 300).map((f) => fileJson(u, c.sha, f));
  }
  return json;
}

const NO_PROTECTION = { enabled: false, required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] } };

/** GET /repos/{owner}/{repo}/branches/{branch} */
export function branchJson(u: RepoUrls, name: string, c: CommitInfo): Record<string, unknown> {
  const path = name.split('/').map(encodeURIComponent).join('/');
  return {
    name,
    commit: restCommitJson(u, c),
    _links: { self: `${u.api}/branches/${path}`, html: `${u.html}/tree/${path}` },
    protected: false,
    protection: NO_PROTECTION,
    protection_url: `${u.api}/branches/${path}/protection`,
  };
}

/** An item of GET /repos/{owner}/{repo}/branches */
export function branchListItemJson(u: RepoUrls, name: string, sha: string): Record<string, unknown> {
  return { name, commit: { sha, url: `${u.api}/commits/${sha}` }, protected: false };
}

/** GET /repos/{owner}/{repo}/git/ref/{ref} and items of git/matching-refs */
export function refJson(u: RepoUrls, r: RefInfo): Record<string, unknown> {
  const kind = r.type === 'tag' ? 'tags' : 'commits';
  return {
    ref: r.ref,
    node_id: nodeId('Ref', `${u.repoId}:${r.ref}`),
    url: `${u.api}/git/${r.ref}`,
    object: { sha: r.sha, type: r.type, url: `${u.api}/git/${kind}/${r.sha}` },
  };
}
