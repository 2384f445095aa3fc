import { commitFiles, createRepo } from '../github-standin/fixture-repos';
import { gitHead } from '../support/git-truth';
import { expectIndexEqualsGit } from '../support/index-truth';
import { startPipeline, type Pipeline } from '../support/pipeline';

const MAIN = 'refs/heads/main';

describe('indexer dead letters', () => {
  let p: Pipeline;
  beforeAll(async () => {
    p = await startPipeline({ maxAttempts: 3 });
  });
  afterAll(() => p.close());

  it('sends a message that cannot succeed to the dead letters with its reason, moves on, and indexes it once replayed after the fix', async () => {
    const poisoned = await createRepo(p.root, 'dlq', 'poisoned', { 'a.txt': 'a\n' });
    const healthy = await createRepo(p.root, 'dlq', 'healthy', { 'b.txt': 'b\n' });
    const poisonedId = await p.standIn.repoId('dlq', 'poisoned');
    const healthyId = await p.standIn.repoId('dlq', 'healthy');

    // The indexer's credentials are refused: no retry can help until someone fixes them.
    p.standIn.configure({ token: 'the-right-token' });
    await p.standIn.push('dlq', 'poisoned', { ref: MAIN });
    await p.waitFor(async () => (await p.deadLetters.list(10)).length === 1, 'one dead letter');
    const [letter] = await p.deadLetters.list(10);
    expect(letter!.letter).toMatchObject({ event: { kind: 'push', repository: { id: poisonedId } }, attempts: 1 });
    expect(letter!.letter.reason).toMatch(/401|Bad credentials/);
    expect(await p.index.getRefState(poisonedId, MAIN)).toMatchObject({ status: 'failed', lastError: expect.stringMatching(/401|Bad credentials/) });

    // The log moved on: later events of other repositories are indexed.
    p.standIn.configure({ token: null });
    await p.standIn.push('dlq', 'healthy', { ref: MAIN });
    await p.waitForCommit(healthyId, MAIN, gitHead(healthy.dir, 'main'));

    await commitFiles(poisoned.dir, { 'c.txt': 'c\n' }, 'more');
    expect(await p.deadLetters.replay(p.publisher)).toBe(1);
    await p.waitForCommit(poisonedId, MAIN, gitHead(poisoned.dir, 'main'));
    await expectIndexEqualsGit(p.index, poisonedId, MAIN, poisoned.dir);
    expect(await p.deadLetters.list(10)).toEqual([]);
  });

  it('gives up on GitHub failing for good after the configured attempts, honouring retry-after meanwhile', async () => {
    const repo = await createRepo(p.root, 'dlq', 'storm', { 'a.txt': 'a\n' });
    const id = await p.standIn.repoId('dlq', 'storm');
    p.standIn.faults.add({ type: '5xx', count: 1000, status: 503, route: '/repositories/' });
    try {
      await p.standIn.push('dlq', 'storm', { ref: MAIN });
      await p.waitFor(async () => (await p.deadLetters.list(10)).some((l) => l.letter.event?.repository.id === id), 'the storm event to be dead-lettered');
      const letter = (await p.deadLetters.list(10)).find((l) => l.letter.event?.repository.id === id)!;
      expect(letter.letter.attempts).toBe(3);
      expect(letter.letter.reason).toMatch(/UNAVAILABLE/);
    } finally {
      p.standIn.faults.clear();
    }
    await p.deadLetters.replay(p.publisher);
    await p.waitForCommit(id, MAIN, gitHead(repo.dir, 'main'));
  });
});
