import type { BackfillEvent, RepositoriesStateOutput } from '@gitdex/contracts';
import { loadEnv } from '@gitdex/contracts';
import { scopedAccess } from '../../src/access';
import type { Principal, ReaderOptions } from '../../src/deps';
import { callTool } from '../../src/tools/call-tool';
import { ToolError } from '../../src/tool-error';
import type { LookedUpRepository } from '../../src/unseen-lookup';
import { createWorld, type World } from '../support/world';

/** What "GitHub" holds in these tests: one public and one private repository gitdex never saw. */
const GITHUB: Record<string, LookedUpRepository> = {
  'newco/open': { id: 501, fullName: 'newco/open', defaultBranch: 'trunk', private: false, htmlUrl: 'https://github.com/newco/open' },
  'newco/closed': { id: 502, fullName: 'newco/closed', defaultBranch: 'main', private: true, htmlUrl: 'https://github.com/newco/closed' },
};

const COVERING: Principal = { id: 'newco-team', repositories: ['newco/*'] };
const UNCOVERING: Principal = { id: 'other-team', repositories: ['octo/*'] };

let clock = Date.parse('2025-02-01T00:00:00.000Z');
let asked: string[];

async function world(options: Partial<ReaderOptions> = {}): Promise<World> {
  clock = Date.parse('2025-02-01T00:00:00.000Z');
  asked = [];
  return createWorld('sqlite', {
    access: scopedAccess,
    now: () => new Date(clock),
    lookup: async (fullName) => {
      asked.push(fullName);
      return GITHUB[fullName.toLowerCase()] ?? null;
    },
    ...options,
  });
}

async function state(w: World, principal: Principal | null, name: string) {
  const answer = await callTool(w.deps, 'repositories_state', { repositories: [name] }, principal, { transport: 'test' });
  return (answer.structured as RepositoriesStateOutput).repositories[0]!;
}

async function readFileError(w: World, principal: Principal | null, name: string): Promise<ToolError> {
  try {
    await callTool(w.deps, 'read_file', { repository: name, path: 'README.md' }, principal, { transport: 'test' });
  } catch (error) {
    return error as ToolError;
  }
  throw new Error('read_file did not fail');
}

describe('a repository gitdex has never seen, asked about in a tool', () => {
  test('is queued for a token whose patterns name it, once GitHub confirms it', async () => {
    const w = await world();
    const answer = await state(w, COVERING, 'newco/open');
    expect(answer).toMatchObject({ repository: 'newco/open', status: 'not_indexed', indexed: false, backfill_queued: true });
    expect(answer.message).toContain('queued for indexing');
    expect(asked).toEqual(['newco/open']);
    const events = w.publisher.events as BackfillEvent[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'backfill',
      reason: 'state_query',
      repository: { id: 501, fullName: 'newco/open', defaultBranch: 'trunk', private: false, htmlUrl: 'https://github.com/newco/open' },
    });

    // Its private sibling too: the token names it.
    expect(await state(w, COVERING, 'newco/closed')).toMatchObject({ backfill_queued: true });
    expect((w.publisher.events as BackfillEvent[]).map((e) => e.repository.fullName)).toEqual(['newco/open', 'newco/closed']);

    // Asked again within the requeue window: already queued, no second event.
    expect(await state(w, COVERING, 'newco/open')).toMatchObject({ status: 'not_indexed', backfill_queued: false });
    expect(w.publisher.events).toHaveLength(2);
  });

  test('other tools queue it too, and say so', async () => {
    const w = await world();
    const error = await readFileError(w, COVERING, 'newco/open');
    expect(error.code).toBe('NOT_INDEXED');
    expect(error.message).toContain('newco/open is not indexed yet: GitHub has it and it is now queued for indexing');
    expect(w.publisher.events).toHaveLength(1);
  });

  test('a private repository the caller cannot read answers exactly as one that does not exist, and queues nothing', async () => {
    const w = await world({ queueUnseen: 'anonymous' });
    for (const principal of [UNCOVERING, null]) {
      const closed = await state(w, principal, 'newco/closed');
      const missing = await state(w, principal, 'newco/nothing');
      expect(closed.status).toBe('unknown');
      expect({ ...closed, repository: 'x', message: closed.message.replace('newco/closed', 'x') }).toEqual({ ...missing, repository: 'x', message: missing.message.replace('newco/nothing', 'x') });
      const closedError = await readFileError(w, principal, 'newco/closed');
      const missingError = await readFileError(w, principal, 'newco/nothing');
      expect(closedError.code).toBe('REPOSITORY_NOT_FOUND');
      expect(closedError.message.replaceAll('newco/closed', 'x')).toBe(missingError.message.replaceAll('newco/nothing', 'x'));
    }
    expect(w.publisher.events).toHaveLength(0);
  });

  test('in the default (tokens) setting, a token that does not name it and anonymous callers get no lookup at all', async () => {
    const w = await world();
    expect(w.deps.queueUnseen).toBe('tokens');
    expect(await state(w, UNCOVERING, 'newco/open')).toMatchObject({ status: 'unknown', backfill_queued: false });
    expect(await state(w, null, 'newco/open')).toMatchObject({ status: 'unknown', backfill_queued: false });
    expect(asked).toEqual([]);
    expect(w.publisher.events).toHaveLength(0);
  });

  test('anonymous callers have a public repository queued only with the anonymous setting', async () => {
    const w = await world({ queueUnseen: 'anonymous' });
    expect(await state(w, null, 'newco/open')).toMatchObject({ status: 'not_indexed', backfill_queued: true });
    expect((w.publisher.events as BackfillEvent[]).map((e) => e.repository.fullName)).toEqual(['newco/open']);
  });

  test('off: nobody has anything looked up', async () => {
    const w = await world({ queueUnseen: 'off' });
    expect(await state(w, COVERING, 'newco/open')).toMatchObject({ status: 'unknown', backfill_queued: false });
    expect(asked).toEqual([]);
    expect(w.publisher.events).toHaveLength(0);
  });

  test('nothing is queued when GitHub says it does not exist', async () => {
    const w = await world();
    const answer = await state(w, COVERING, 'newco/ghost');
    expect(answer).toMatchObject({ status: 'unknown', backfill_queued: false });
    expect(answer.message).toContain('gitdex has never received an event for it');
    expect(asked).toEqual(['newco/ghost']);
    expect(w.publisher.events).toHaveLength(0);
  });

  test('a failed GitHub lookup says to retry and queues nothing', async () => {
    const w = await world({
      lookup: async () => {
        throw new Error('GitHub down (test)');
      },
    });
    const answer = await state(w, COVERING, 'newco/open');
    expect(answer).toMatchObject({ status: 'unknown', backfill_queued: false });
    expect(answer.message).toContain('could not ask GitHub about it just now');
    expect(w.publisher.events).toHaveLength(0);
  });

  test('lookups are rate-limited per token, with a clear error, and the bucket refills', async () => {
    const w = await world({ unseenLookupsPerMinute: 3 });
    for (let i = 0; i < 3; i++) expect((await state(w, COVERING, `newco/ghost-${i}`)).status).toBe('unknown');
    const limited = callTool(w.deps, 'repositories_state', { repositories: ['newco/open'] }, COVERING, { transport: 'test' });
    await expect(limited).rejects.toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('Too many lookups of repositories gitdex has not indexed: at most 3 a minute per token') });
    expect(asked).toHaveLength(3);
    expect(w.publisher.events).toHaveLength(0);
    // Another token has its own bucket.
    expect(await state(w, { id: 'second', repositories: ['newco/*'] }, 'newco/open')).toMatchObject({ backfill_queued: true });
    // A minute later the first token may look up again.
    clock += 60_000;
    expect(await state(w, COVERING, 'newco/closed')).toMatchObject({ backfill_queued: true });
  });

  test('without a lookup (no GitHub access) an unseen repository only says how to index it', async () => {
    const w = await world({ lookup: undefined });
    expect(await state(w, COVERING, 'newco/open')).toMatchObject({ status: 'unknown', backfill_queued: false });
    expect(w.publisher.events).toHaveLength(0);
  });
});

describe('GITDEX_QUEUE_UNSEEN', () => {
  test('defaults to tokens, takes anonymous and off, and refuses anything else', () => {
    expect(loadEnv({}).GITDEX_QUEUE_UNSEEN).toBe('tokens');
    expect(loadEnv({ GITDEX_QUEUE_UNSEEN: 'anonymous' }).GITDEX_QUEUE_UNSEEN).toBe('anonymous');
    expect(loadEnv({ GITDEX_QUEUE_UNSEEN: 'off' }).GITDEX_QUEUE_UNSEEN).toBe('off');
    expect(() => loadEnv({ GITDEX_QUEUE_UNSEEN: 'everyone' })).toThrow(/GITDEX_QUEUE_UNSEEN/);
  });

  test('the reader refuses an unknown policy', async () => {
    await expect(world({ queueUnseen: 'everyone' as never })).rejects.toThrow('queueUnseen must be anonymous, tokens or off');
  });
});
