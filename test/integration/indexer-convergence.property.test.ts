import fc from 'fast-check';
import type { GitdexEvent } from '@gitdex/contracts';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, handleEvent, RefSelection, type HandleEventDeps } from '@gitdex/indexer';
import { commitFiles, createRepo, forcePush, makeTempRoot, removeTempRoot, type FileChanges } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { engineEndpoints, uniqueName } from '../harness/engines';
import { gitHead } from '../support/git-truth';
import { expectIndexEqualsGit } from '../support/index-truth';

const MAIN = 'refs/heads/main';
const PATHS = ['a.txt', 'src/b.ts', 'src/deep/c.ts', 'src/deep/d.md', 'docs/e.md', 'docs/f g.txt', 'ü/ñ.txt'];

type Step = { type: 'commit'; changes: [number, string | null][] } | { type: 'force'; keep: number[] } | { type: 'deliver'; pick: number; times: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('commit' as const),
      changes: fc.array(fc.tuple(fc.nat(PATHS.length - 1), fc.option(fc.string({ maxLength: 12 }), { nil: null })), { minLength: 1, maxLength: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('force' as const), keep: fc.uniqueArray(fc.nat(PATHS.length - 1), { minLength: 1, maxLength: 3 }) }) },
  { weight: 5, arbitrary: fc.record({ type: fc.constant('deliver' as const), pick: fc.nat(), times: fc.integer({ min: 1, max: 2 }) }) },
);

describe('indexer convergence (property)', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let index: ElasticsearchIndexStore;
  let deps: HandleEventDeps;
  const prefix = uniqueName('prop').replace(/-/g, '');

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-prop-');
    standIn = await createGitHubStandIn({ root, rateLimit: { limit: 1_000_000 } });
    index = new ElasticsearchIndexStore({ node: engineEndpoints().elasticsearchUrl, indexPrefix: prefix });
    await index.ensureReady();
    deps = {
      index,
      source: new GitHubSource({ baseUrl: standIn.url }),
      refs: new RefSelection(['default']),
      options: { ...DEFAULT_INDEX_REF_OPTIONS, retainedGenerations: 2 },
      now: () => new Date(),
    };
  });
  afterAll(async () => {
    await standIn.close();
    await fetch(`${engineEndpoints().elasticsearchUrl}/${prefix}-*?expand_wildcards=all`, { method: 'DELETE' });
    await index.close();
    await removeTempRoot(root);
  });

  it('any interleaving of pushes and deliveries — stale, reordered, duplicated — leaves the index equal to GitHub', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 12 }), async (steps) => {
        run += 1;
        const name = `r${run}`;
        const repo = await createRepo(root, 'prop', name, { 'a.txt': 'start\n' });
        const id = await standIn.repoId('prop', name);
        const events: GitdexEvent[] = [];
        const record = (after: string) =>
          events.push({
            kind: 'push',
            eventId: `d-${events.length}`,
            repository: { id, fullName: `prop/${name}` },
            receivedAt: new Date().toISOString(),
            ref: MAIN,
            before: '0'.repeat(40),
            after,
            created: false,
            deleted: false,
            forced: false,
          });
        record(repo.sha!);
        const delivered = new Set<string>();
        for (const s of steps) {
          if (s.type === 'commit') {
            const changes: FileChanges = Object.fromEntries(s.changes.map(([p, content]) => [PATHS[p]!, content === null ? null : `${content}\n`]));
            record(await commitFiles(repo.dir, changes, 'change').catch(async () => gitHead(repo.dir, 'main')));
          } else if (s.type === 'force') {
            record(await forcePush(repo.dir, 'main', Object.fromEntries(s.keep.map((p) => [PATHS[p]!, `rewritten ${p}\n`]))));
          } else {
            const event = events[s.pick % events.length]!;
            for (let i = 0; i < s.times; i += 1) await handleEvent(deps, event);
            delivered.add(event.eventId);
            // After any delivery, stale or not, the ref shows GitHub's state at that moment.
            await expectIndexEqualsGit(index, id, MAIN, repo.dir, { contentSample: 5 });
          }
        }
        // Every push's event arrives at least once: those still owed come newest first, so the rest are stale.
        for (const event of events.filter((e) => !delivered.has(e.eventId)).reverse()) await handleEvent(deps, event);
        await expectIndexEqualsGit(index, id, MAIN, repo.dir);
      }),
      { numRuns: 8, endOnFailure: true, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}) } : {}) },
    );
  });
});
