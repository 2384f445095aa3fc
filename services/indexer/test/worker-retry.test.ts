import type { DeadLetter, RefState } from '@gitdex/contracts';
import { PortError, type DeadLetterStore, type EventEnvelope, type Source } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { DEFAULT_INDEX_REF_OPTIONS } from '../src/index-ref';
import { RefSelection } from '../src/ref-selection';
import { createBatchHandler } from '../src/worker';

const envelope: EventEnvelope = {
  event: { kind: 'backfill', eventId: 'e-1', repository: { id: 7, fullName: 'o/r' }, receivedAt: new Date(0).toISOString(), reason: 'cli' },
  headers: {},
  position: 'test/0/0',
};

/** GitHub answering with one error for every call, as in an outage. */
function failingSource(error: PortError): Source {
  const fail = async (): Promise<never> => {
    throw error;
  };
  return { repository: fail, repositoryByName: fail, head: fail, branches: fail, tree: fail, blob: fail, tarball: fail };
}

/** An index that takes every write but the one saying a ref failed. */
class StateRefusingIndex extends SqliteIndexStore {
  override async putRefState(state: RefState): Promise<void> {
    if (state.status === 'failed') throw new PortError('UNAVAILABLE', 'write refused: disk full', { retriable: true });
    await super.putRefState(state);
  }
}

function harness(error: PortError, budgetMs: number, index = new SqliteIndexStore({ file: ':memory:' })) {
  let clock = 0;
  const letters: DeadLetter[] = [];
  const errors: { context: Record<string, unknown>; message: string }[] = [];
  const deadLetters: DeadLetterStore = { add: async (l) => void letters.push(l), list: async () => [], replay: async () => 0 };
  const handler = createBatchHandler({
    index,
    source: failingSource(error),
    deadLetters,
    refs: new RefSelection(['default']),
    options: DEFAULT_INDEX_REF_OPTIONS,
    retry: { maxAttempts: 3, retryBudgetMs: budgetMs, baseDelayMs: 1000, maxDelayMs: 30_000 },
    now: () => new Date(clock),
    // Sleeping moves the test's clock instead of waiting.
    sleep: async (ms) => {
      clock += ms;
    },
    log: { info: () => undefined, warn: () => undefined, error: (context, message) => void errors.push({ context, message }) },
  });
  return { index, handler, letters, errors, elapsed: () => clock };
}

describe('worker retries', () => {
  it('keeps retrying a GitHub outage for the whole budget before it dead-letters', async () => {
    const h = harness(new PortError('UNAVAILABLE', 'GitHub 503', { retriable: true }), 10 * 60_000);
    await h.index.ensureReady();
    await h.handler([envelope], { heartbeat: async () => undefined });
    expect(h.letters).toHaveLength(1);
    expect(h.elapsed()).toBeGreaterThanOrEqual(10 * 60_000);
    expect(h.letters[0]!.attempts).toBeGreaterThan(3);
  });

  it('dead-letters a failure that can never succeed at once', async () => {
    const h = harness(new PortError('INVALID', 'Bad credentials', { retriable: false }), 10 * 60_000);
    await h.index.ensureReady();
    await h.handler([envelope], { heartbeat: async () => undefined });
    expect(h.letters).toHaveLength(1);
    expect(h.letters[0]).toMatchObject({ attempts: 1, reason: expect.stringContaining('Bad credentials') });
    expect(await h.index.getRefState(7, 'refs/heads/main')).toBeNull();
  });

  it('reports a failure to record the failure, and its dead letter says the ref state was not updated', async () => {
    const h = harness(new PortError('INVALID', 'Bad credentials', { retriable: false }), 10 * 60_000, new StateRefusingIndex({ file: ':memory:' }));
    await h.index.ensureReady();
    const onMain: EventEnvelope = { ...envelope, event: { ...envelope.event, repository: { id: 7, fullName: 'o/r', defaultBranch: 'main' } } };
    await h.handler([onMain], { heartbeat: async () => undefined });
    expect(h.errors).toContainEqual({
      message: 'could not record the failure on the ref state',
      context: expect.objectContaining({ eventId: 'e-1', error: 'write refused: disk full', reason: expect.stringContaining('Bad credentials') }),
    });
    expect(h.letters).toHaveLength(1);
    expect(h.letters[0]!.reason).toMatch(/Bad credentials .*failed state was not recorded: UNAVAILABLE: write refused: disk full/);
  });

  it('with no budget, stops after the configured attempts', async () => {
    const h = harness(new PortError('RATE_LIMITED', 'secondary rate limit', { retriable: true, retryAfterMs: 60_000 }), 0);
    await h.index.ensureReady();
    await h.handler([envelope], { heartbeat: async () => undefined });
    expect(h.letters[0]!.attempts).toBe(3);
    // Each wait was what GitHub asked for.
    expect(h.elapsed()).toBeGreaterThanOrEqual(2 * 60_000);
  });
});

/** Resolves after the event loop went round `n` times: a wait bounded by work, not by the clock. */
async function idleTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('a batch of several repositories', () => {
  const eventOf = (id: number): EventEnvelope => ({ ...envelope, event: { ...envelope.event, eventId: `e-${id}`, repository: { id, fullName: `o/r${id}` } } });

  it('handles them side by side: one repository being indexed does not hold back the others fetched with it', async () => {
    // GitHub answers repository 1 only once repository 2 was asked for (or after the event loop went
    // round many times with nothing else to do): one at a time, 2 is asked only after 1 gave up.
    let askedForTwo: () => void = () => undefined;
    const twoAsked = new Promise<void>((resolve) => (askedForTwo = resolve));
    const seen: string[] = [];
    const source: Source = failingSource(new PortError('INVALID', 'gone', { retriable: false }));
    const slowFirst = async (name: string): Promise<never> => {
      seen.push(name);
      if (name === 'o/r2') askedForTwo();
      if (name === 'o/r1') {
        const timedOut = await Promise.race([twoAsked.then(() => false), idleTurns(200).then(() => true)]);
        seen.push(timedOut ? 'o/r1 waited alone' : 'o/r1 answered beside o/r2');
      }
      throw new PortError('INVALID', 'gone', { retriable: false });
    };
    const letters: DeadLetter[] = [];
    const index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    const handler = createBatchHandler({
      index,
      source: { ...source, repository: (id) => slowFirst(`o/r${String(id)}`), repositoryByName: (name) => slowFirst(name) },
      deadLetters: { add: async (l) => void letters.push(l), list: async () => [], replay: async () => 0 },
      refs: new RefSelection(['default']),
      options: DEFAULT_INDEX_REF_OPTIONS,
      retry: { maxAttempts: 1, retryBudgetMs: 0, baseDelayMs: 1, maxDelayMs: 1 },
      now: () => new Date(),
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    await handler([eventOf(1), eventOf(2)], { heartbeat: async () => undefined });
    expect(seen).toContain('o/r1 answered beside o/r2');
    // Every event handled before the batch ends (its offsets are committed after).
    expect(letters.map((l) => l.event?.repository.id).sort()).toEqual([1, 2]);
  });
});
