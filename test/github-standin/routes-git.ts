// Git database endpoints: refs, commits, trees (recursive, truncated like GitHub) and blobs.
import { Router } from 'express';
import { gitCommitJson, refJson, repoUrls, type RepoUrls } from './commit-json';
import { urlsOf, type StandInContext } from './context';
import { listTree, objectType, readBlob, readCommit, resolveTree, revParse, type TreeEntry } from './git-objects';
import { listRefs, readRef } from './git-refs';
import { isHexSha } from './git';
import { notFound, wildcard } from './http';
import { nodeId } from './repo-json';
import { apiChain, emptyOr, loadRepo, ok } from './route-kit';
import { ROUTES } from './route-patterns';

/** Base64 the way GitHub's blob API writes it: a newline after every 60 characters. */
export function githubBase64(data: Buffer): string {
  const flat = data.toString('base64');
  let out = '';
  for (let i = 0; i < flat.length; i += 60) out += `${flat.slice(i, i + 60)}\n`;
  return out;
}

function entryJson(u: RepoUrls, e: TreeEntry): Record<string, unknown> {
  const json: Record<string, unknown> = { path: e.path, mode: e.mode, type: e.type, sha: e.sha };
  if (e.type === 'blob') json.size = e.size;
  if (e.type !== 'commit') json.url = `${u.api}/git/${e.type}s/${e.sha}`;
  return json;
}

/** Keeps the first entries within both limits; reports whether anything was cut. */
export function truncateEntries<T>(entries: readonly T[], maxEntries: number, maxBytes: number): { entries: T[]; truncated: boolean } {
  let bytes = 0;
  for (let i = 0; i < entries.length; i += 1) {
    bytes += JSON.stringify(entries[i]).length + 1;
    if (i >= maxEntries || bytes > maxBytes) return { entries: entries.slice(0, i), truncated: true };
  }
  return { entries: [...entries], truncated: false };
}

export function gitRouter(ctx: StandInContext): Router {
  const router = Router();
  const chain = apiChain(ctx);

  router.get(ROUTES.gitRef, ...chain, async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const ref = await readRef(repo.dir, `refs/${wildcard(req.params.ref)}`);
    if (!ref) throw await emptyOr(repo, notFound('https://docs.github.com/rest/git/refs#get-a-reference'));
    ok(ctx, req, res, refJson(repoUrls(repo, urlsOf(ctx)), ref));
  });

  router.get(ROUTES.matchingRefs, ...chain, async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const prefix = `refs/${wildcard(req.params.ref)}`;
    const refs = (await listRefs(repo.dir, 'refs/')).filter((r) => r.ref.startsWith(prefix));
    const u = repoUrls(repo, urlsOf(ctx));
    ok(
      ctx,
      req,
      res,
      refs.map((r) => refJson(u, r)),
    );
  });

  router.get(ROUTES.gitCommit, ...chain, async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const sha = String(req.params.sha).toLowerCase();
    const commit = (await objectType(repo.dir, sha)) === 'commit' ? await readCommit(repo.dir, sha) : null;
    if (!commit) throw await emptyOr(repo, notFound('https://docs.github.com/rest/git/commits#get-a-commit-object'));
    ok(ctx, req, res, gitCommitJson(repoUrls(repo, urlsOf(ctx)), commit));
  });

  router.get(ROUTES.tree, ...chain, async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const sha = await resolveTree(repo.dir, wildcard(req.params.tree_sha));
    if (!sha) throw await emptyOr(repo, notFound('https://docs.github.com/rest/git/trees#get-a-tree'));
    // GitHub treats any value of `recursive` (even "0" or "false") as recursive.
    const recursive = req.query.recursive !== undefined;
    const u = repoUrls(repo, urlsOf(ctx));
    const all = (await listTree(repo.dir, sha, recursive)).map((e) => entryJson(u, e));
    const maxBytes = ctx.config.maxTreeBytes;
    let maxEntries = ctx.config.maxTreeEntries;
    if (recursive) {
      const fault = ctx.faults.takeFirst(['truncate_trees'], req.originalUrl);
      if (fault?.spec.type === 'truncate_trees') maxEntries = Math.min(maxEntries, fault.spec.maxEntries);
    }
    const { entries, truncated } = recursive ? truncateEntries(all, maxEntries, maxBytes) : { entries: all, truncated: false };
    ok(ctx, req, res, { sha, url: `${u.api}/git/trees/${sha}`, tree: entries, truncated });
  });

  router.get(ROUTES.blob, ...chain, async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const sha = String(req.params.sha).toLowerCase();
    const data = isHexSha(sha) ? await readBlob(repo.dir, sha) : null;
    if (!data) throw await emptyOr(repo, notFound('https://docs.github.com/rest/git/blobs#get-a-blob'));
    if (/application\/vnd\.github(\.v3)?\.raw/.test(req.get('accept') ?? '')) {
      res.status(200).setHeader('content-type', 'application/vnd.github.raw');
      res.send(data);
      return;
    }
    const u = repoUrls(repo, urlsOf(ctx));
    const full = sha.length === 40 ? sha : ((await revParse(repo.dir, `${sha}^{blob}`)) ?? sha);
    ok(ctx, req, res, {
      sha: full,
      node_id: nodeId('Blob', `${repo.id}:${full}`),
      size: data.length,
      url: `${u.api}/git/blobs/${full}`,
      content: githubBase64(data),
      encoding: 'base64',
    });
  });

  return router;
}
