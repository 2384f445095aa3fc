import type { SearchCodeOutput } from '@gitdex/contracts';
import { resolveDeps } from '../../src/deps';
import { matchPool } from '../../src/search/match-pool';
import { MAX_PROGRAM_SIZE } from '../../src/search/query';
import { SEARCHES_PER_CALLER } from '../../src/search/gate';
import { pushCommit, readyState, seedRepository } from '../support/documents';
import { call, connectInMemory, failed, ok } from '../support/mcp-client';
import { stallingIndex, waitFor } from '../support/stalling-index';
import { createWorld, type World } from '../support/world';

// Issue 40, items 1 and 10, on the path a caller takes: the real reader through MCP, SQLite index.

/** A line of `length` characters without "!", then "!": every instruction of `[^!]{n}…!` stays alive along it. */
const longLine = (length: number) => `${'x'.repeat(length)}!\n`;

describe('search_code cannot hold the process (SQLite index)', () => {
  let world: World;
  afterAll(async () => matchPool().close());

  beforeEach(async () => {
    world = await createWorld('sqlite', { limits: { searchDeadlineMs: 3_000, timeoutMs: 10_000 } });
    await seedRepository(world.index, { id: 50, fullName: 'octo/long', files: { 'long.txt': longLine(1_000_000), 'short.txt': 'needle\n' } });
  });

  test('a regex whose program expands past the bound is refused at once, with what to change', async () => {
    const { client, close } = await connectInMemory(world.deps);
    try {
      for (const query of ['a{0,999}'.repeat(125), `${'[^!]{999}'.repeat(110)}!`, '((a{10}){10}){30}']) {
        const refused = failed(await call(client, 'search_code', { repository: 'octo/long', query, regex: true }));
        expect(refused.code).toBe('INVALID_ARGUMENT');
        expect(refused.text).toMatch(new RegExp(`expands to about [\\d,]+ instructions, more than the ${MAX_PROGRAM_SIZE.toLocaleString('en-US')} gitdex runs`));
      }
      // Within the bound, a counted repetition is searched as before.
      expect(ok<SearchCodeOutput>(await call(client, 'search_code', { repository: 'octo/long', query: 'ne{2}dle$', regex: true })).files.map((f) => f.path)).toEqual(['short.txt']);
    } finally {
      await close();
    }
  });

  test('the worst regex within the bound stops at the deadline (complete: false) while another call is answered', async () => {
    const worst = `${'[^!]{999}'.repeat(2)}!`;
    expect(worst.length).toBeLessThan(30);
    const { client, close } = await connectInMemory(world.deps);
    try {
      let hostileDone = false;
      const hostile = call(client, 'search_code', { repository: 'octo/long', query: worst, regex: true }).then((result) => {
        hostileDone = true;
        return result;
      });
      // Give the hostile search time to start verifying, then ask something else.
      await waitFor(() => matchPool().busyWorkers() > 0);
      const other = ok<SearchCodeOutput>(await call(client, 'search_code', { repository: 'octo/long', query: 'needle' }));
      expect(other.total_files).toBe(1);
      expect(hostileDone).toBe(false);
      const out = ok<SearchCodeOutput>(await hostile);
      expect(out).toMatchObject({ complete: false, counts_exact: false });
    } finally {
      await close();
    }
  });

  test('path and exclude globs too long together are refused, not tested against every path', async () => {
    const { client, close } = await connectInMemory(world.deps);
    try {
      const globs = Array.from({ length: 20 }, (_, i) => `${'*a'.repeat(499)}${i}`);
      for (const field of ['path', 'exclude']) {
        const refused = failed(await call(client, 'search_code', { repository: 'octo/long', query: 'needle', [field]: globs }));
        expect(refused.code).toBe('INVALID_ARGUMENT');
        expect(refused.text).toMatch(new RegExp(`^${field}: these globs are too long together`));
      }
      expect(ok<SearchCodeOutput>(await call(client, 'search_code', { repository: 'octo/long', query: 'needle', path: ['*.txt', 'src/**'] })).total_files).toBe(1);
    } finally {
      await close();
    }
  });

  test('searches in flight are capped per caller: one more is told to retry, another caller is not', async () => {
    const hanging = stallingIndex(world.index, 0);
    const deps = resolveDeps({ index: hanging.index, publisher: world.publisher, limits: { timeoutMs: 600_000 } });
    const alice = await connectInMemory(deps, { id: 'alice' });
    const bob = await connectInMemory(deps, { id: 'bob' });
    try {
      const running = Array.from({ length: SEARCHES_PER_CALLER }, () => call(alice.client, 'search_code', { query: 'needle' }));
      await waitFor(() => hanging.calls.length >= SEARCHES_PER_CALLER);
      const busy = failed(await call(alice.client, 'search_code', { query: 'needle' }));
      expect(busy.code).toBe('UNAVAILABLE');
      expect(busy.text).toMatch(/^search_code is busy: you already have 4 searches running, at most 4 at once\. Retry in \d+ s/);
      const other = call(bob.client, 'search_code', { query: 'needle' });
      hanging.release();
      expect(ok<SearchCodeOutput>(await other).total_files).toBeGreaterThanOrEqual(1);
      for (const result of await Promise.all(running)) ok(result);
      // Places are given back: the caller searches again.
      ok(await call(alice.client, 'search_code', { query: 'needle' }));
    } finally {
      hanging.release();
      await alice.close();
      await bob.close();
    }
  });
});

describe('search_code pages across many repositories (SQLite index)', () => {
  let world: World;
  const REPOSITORIES = 60;

  beforeEach(async () => {
    world = await createWorld('sqlite');
    for (let i = 0; i < REPOSITORIES; i += 1) {
      await seedRepository(world.index, {
        id: 1_000 + i,
        fullName: `wide-owner-with-a-long-name/repository-number-${String(i).padStart(3, '0')}`,
        files: { 'src/found.ts': 'export const wideNeedle = 1;\n' },
      });
    }
  });

  test('next_cursor stays within its schema whatever the number of repositories, and every page comes', async () => {
    const { client, close } = await connectInMemory(world.deps);
    try {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: SearchCodeOutput = ok<SearchCodeOutput>(await call(client, 'search_code', { query: 'wideNeedle', limit: 25, ...(cursor ? { cursor } : {}) }));
        expect(page.repositories.length).toBeGreaterThanOrEqual(REPOSITORIES);
        seen.push(...page.files.map((f) => f.repository));
        cursor = page.next_cursor;
        if (cursor !== null) expect(cursor.length).toBeLessThanOrEqual(8_192);
        pages += 1;
      } while (cursor !== null && pages < 10);
      expect(pages).toBe(3);
      expect(new Set(seen).size).toBe(REPOSITORIES);
      expect(seen).toHaveLength(REPOSITORIES);
    } finally {
      await close();
    }
  });

  test('a wide cursor whose repositories moved on since the first page has expired, and says why', async () => {
    const { client, close } = await connectInMemory(world.deps);
    try {
      const first = ok<SearchCodeOutput>(await call(client, 'search_code', { query: 'wideNeedle', limit: 25 }));
      await pushCommit(world.index, { repositoryId: 1_007, ref: 'refs/heads/main', label: 'moved', put: { 'src/new.ts': 'wideNeedle\n' } });
      const expired = failed(await call(client, 'search_code', { query: 'wideNeedle', limit: 25, cursor: first.next_cursor }));
      expect(expired.code).toBe('CURSOR_EXPIRED');
      expect(expired.text).toMatch(/one of them has moved on since the first page/);
    } finally {
      await close();
    }
  });
});

describe('a sha prefix of two commits (SQLite index)', () => {
  test('is refused, listing both, and never read as the first', async () => {
    const world = await createWorld('sqlite');
    const { state } = await seedRepository(world.index, { id: 60, fullName: 'octo/twins', files: { 'a.txt': 'twin\n' } });
    const one = `abcdef1${'1'.repeat(33)}`;
    const two = `abcdef1${'2'.repeat(33)}`;
    await world.index.putRefState({ ...state, commitSha: one });
    await world.index.putRefState(readyState(60, 'refs/heads/other', two, 1, 1));
    const { client, close } = await connectInMemory(world.deps);
    try {
      const ambiguous = failed(await call(client, 'search_code', { repository: 'octo/twins', ref: 'abcdef1', query: 'twin' }));
      expect(ambiguous.code).toBe('INVALID_ARGUMENT');
      expect(ambiguous.text).toBe(`ref: abcdef1 is a prefix of 2 different commits gitdex holds: ${one} (main), ${two} (other). Give more digits of the one you mean.`);
      // More digits name one.
      expect(ok<SearchCodeOutput>(await call(client, 'search_code', { repository: 'octo/twins', ref: 'abcdef12', query: 'twin' })).repositories[0]?.ref).toBe('refs/heads/other');
    } finally {
      await close();
    }
  });
});
