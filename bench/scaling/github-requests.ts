// GitHub requests a push, before and after pushes were read with compare and GraphQL, in one run:
// for pushes changing 1, 10, 100 and 1,000 files of a 3,000-file repository, the same push is
// indexed twice from the same served commit, by the indexer as main runs it (REST trees and one
// blob a file: what a source without batch reads does) and as it runs now (compare + GraphQL).
// Requests are counted at the stand-in's request log; each push is also timed with GitHub 100 ms
// slower (a latency fault on every call), what issue 46's data-centre figure assumed.
//
//   node scripts/prepare.mjs --build -- tsx --tsconfig bench/tsconfig.json bench/scaling/github-requests-cli.ts
import { randomBytes } from 'node:crypto';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import type { PushEvent } from '@gitdex/contracts';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, handleEvent, RefSelection, type HandleEventDeps } from '@gitdex/indexer';
import { commitFiles, createRepo, headSha, makeTempRoot, removeTempRoot, type FileChanges } from '../../test/github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../../test/github-standin/server';

const SIZES = [1, 10, 100, 1000];
const REPOSITORY_FILES = 3000;
const LATENCY_MS = 100;
const TOKEN = 'bench-token';

export interface RequestsRow {
  files: number;
  path: 'before' | 'after';
  requests: number;
  routes: Record<string, number>;
  /** Wall time of the push's indexing with GitHub LATENCY_MS slower. */
  msAtLatency: number;
}

const fileAt = (i: number) => `pkg${i % 12}/mod${i % 7}/sub${i % 5}/file${i}.ts`;

async function pushOnce(
  standIn: GitHubStandIn,
  deps: HandleEventDeps,
  repo: { owner: string; name: string; id: number; dir: string },
  sha: string,
  before: string,
): Promise<{ requests: number; routes: Record<string, number>; ms: number }> {
  const event: PushEvent = {
    kind: 'push',
    eventId: randomBytes(8).toString('hex'),
    repository: { id: repo.id, fullName: `${repo.owner}/${repo.name}` },
    receivedAt: new Date().toISOString(),
    ref: 'refs/heads/main',
    before,
    after: sha,
    created: false,
    deleted: false,
    forced: false,
  };
  standIn.requests.reset();
  const started = performance.now();
  const outcome = await handleEvent(deps, event);
  const ms = performance.now() - started;
  if (outcome.action !== 'synced' || outcome.refs[0]?.outcome === 'deleted' || outcome.refs[0]?.outcome.commitSha !== sha)
    throw new Error(`push to ${repo.name} did not index ${sha}: ${JSON.stringify(outcome)}`);
  const routes = standIn.requests.counts();
  return { requests: standIn.requests.total, routes, ms };
}

export async function measureGitHubRequests(log: (line: string) => void = console.log): Promise<RequestsRow[]> {
  const root = await makeTempRoot('gitdex-requests-');
  const prefix = `bench${randomBytes(4).toString('hex')}`;
  const elasticsearchUrl = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200';
  const index = new ElasticsearchIndexStore({ node: elasticsearchUrl, indexPrefix: prefix });
  const standIn = await createGitHubStandIn({ root, rateLimit: { limit: 10_000_000 } });
  const rows: RequestsRow[] = [];
  try {
    await index.ensureReady();
    const base: Omit<HandleEventDeps, 'source'> = { index, options: DEFAULT_INDEX_REF_OPTIONS, now: () => new Date(), refs: new RefSelection(['default']) };
    const paths: Record<RequestsRow['path'], HandleEventDeps> = {
      before: { ...base, source: new GitHubSource({ baseUrl: standIn.url }) },
      after: { ...base, source: new GitHubSource({ baseUrl: standIn.url, token: TOKEN }) },
    };
    const files: FileChanges = {};
    for (let i = 0; i < REPOSITORY_FILES; i += 1) files[fileAt(i)] = `export const v${i} = ${i};\n`;
    // Built once and copied: every repository starts from the same commit.
    const template = await createRepo(root, 'template', 'files', files);
    for (const k of SIZES) {
      // One repository a path, same content: each push starts from the same served commit.
      const changes: FileChanges = {};
      for (let j = 0; j < k; j += 1) changes[fileAt(Math.floor((j * REPOSITORY_FILES) / k))] = `export const changed${j} = ${k};\n`;
      for (const path of ['before', 'after'] as const) {
        const name = `r${k}-${path}`;
        const dir = join(root, 'bench', name);
        await cp(template.dir, dir, { recursive: true });
        const id = await standIn.repoId('bench', name);
        const handle = { owner: 'bench', name, id, dir };
        const first = await headSha(dir);
        await pushOnce(standIn, paths[path], handle, first, '0'.repeat(40));
        const sha = await commitFiles(dir, changes, `${k} files`);
        const latency = standIn.faults.add({ type: 'latency', ms: LATENCY_MS });
        const { requests, routes, ms } = await pushOnce(standIn, paths[path], handle, sha, first);
        standIn.faults.remove(latency.id);
        rows.push({ files: k, path, requests, routes, msAtLatency: Math.round(ms) });
        log(`${String(k).padStart(5)} files  ${path.padEnd(6)}  ${String(requests).padStart(5)} requests  ${String(Math.round(ms)).padStart(6)} ms at +${LATENCY_MS} ms  ${JSON.stringify(routes)}`);
      }
    }
  } finally {
    await standIn.close();
    await index.close();
    await fetch(`${elasticsearchUrl}/${prefix}-*?expand_wildcards=all`, { method: 'DELETE' }).catch(() => undefined);
    await removeTempRoot(root);
  }
  return rows;
}
