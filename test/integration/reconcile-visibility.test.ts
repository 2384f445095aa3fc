import { GitHubSource } from '@gitdex/github';
import { reconcile } from '@gitdex/indexer';
import { createRepo } from '../github-standin/fixture-repos';
import { startPipeline, type Pipeline } from '../support/pipeline';

const MAIN = 'refs/heads/main';

/**
 * Issue 17, item 5: a repository made private whose webhook was lost (GitHub never redelivers
 * on its own) was public until its next push; `gitdex reconcile` compared heads only.
 */
describe('reconciler: metadata changes without a webhook', () => {
  let p: Pipeline;

  beforeAll(async () => {
    p = await startPipeline({});
  });
  afterAll(() => p.close());

  it('hides a repository made private whose webhook was lost', async () => {
    const repo = await createRepo(p.root, 'acme', 'quietly-private', { 'secret.txt': 'canary\n' });
    const id = await p.standIn.repoId('acme', 'quietly-private');
    await p.standIn.push('acme', 'quietly-private', { ref: MAIN });
    await p.waitForCommit(id, MAIN, repo.sha!);
    expect(await p.index.getRepository(id)).toMatchObject({ private: false });

    await p.standIn.setVisibility('acme', 'quietly-private', true, { deliver: false });
    const source = new GitHubSource({ baseUrl: p.standIn.url, maxInlineWaitSeconds: 2 });
    const report = await reconcile({ index: p.index, source, publisher: p.publisher, now: () => new Date() });
    expect(report.metadata).toEqual(expect.arrayContaining([{ repository: 'acme/quietly-private', changed: ['private'] }]));
    // Readers decide on this document: private now, so hidden from callers without a matching token.
    expect(await p.index.getRepository(id)).toMatchObject({ private: true, fullName: 'acme/quietly-private' });

    const again = await reconcile({ index: p.index, source, publisher: p.publisher, now: () => new Date() });
    expect(again.metadata.find((m) => m.repository === 'acme/quietly-private')).toBeUndefined();
  });
});
