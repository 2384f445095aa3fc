import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortError } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { describeIndexStoreConformance } from '../../../test/conformance/index-store.cases';
import { MAIN, makeFile, makeRepository, put } from '../../../test/conformance/index-store.fixtures';

const dir = mkdtempSync(join(tmpdir(), 'gitdex-index-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeIndexStoreConformance('SQLite', async () => new SqliteIndexStore({ file: join(dir, 'conformance.sqlite') }));
// Every suggestion term counts as frequent: the pruned scoring path (and its fallback) must agree exactly.
describeIndexStoreConformance('SQLite, suggestion pruning forced', async () => new SqliteIndexStore({ file: join(dir, 'pruned.sqlite'), suggestFrequentTermFiles: 1 }));

describe('SqliteIndexStore', () => {
  it('refuses to be built without a file, or on a file it cannot open', () => {
    expect(() => new SqliteIndexStore({} as never)).toThrow(PortError);
    expect(() => new SqliteIndexStore({ file: join(dir, 'missing-folder', 'x.sqlite') })).toThrow(expect.objectContaining({ code: 'INVALID', message: expect.stringMatching(/SQLite index/) }));
  });

  it('keeps what it wrote across a reopen', async () => {
    const file = join(dir, 'reopen.sqlite');
    const first = new SqliteIndexStore({ file });
    await first.ensureReady();
    await first.putRepository(makeRepository(7, 'octo/reopen'));
    await first.writeFiles([put(makeFile({ repositoryId: 7, path: 'a.ts' }))]);
    await first.close();
    const second = new SqliteIndexStore({ file });
    await second.ensureReady();
    expect(await second.findRepositoryByName('OCTO/REOPEN')).not.toBeNull();
    expect(await second.visibleEntries({ repositoryId: 7, ref: MAIN, generation: 1 }, null, 10)).toHaveLength(1);
    await second.close();
  });

  it('answers UNAVAILABLE naming SQLite once closed, and ping says false', async () => {
    const store = new SqliteIndexStore({ file: ':memory:' });
    await store.ensureReady();
    await store.close();
    expect(await store.ping()).toBe(false);
    const error = await store.getRepository(1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PortError);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', retriable: true });
    expect((error as Error).message).toMatch(/SQLite/);
  });

  it('rolls a failed writeFiles call back entirely', async () => {
    const store = new SqliteIndexStore({ file: ':memory:' });
    const good = makeFile({ repositoryId: 8, path: 'good.ts' });
    const bad = { ...makeFile({ repositoryId: 8, path: 'bad.ts' }), size: 'x' as unknown as number };
    await expect(store.writeFiles([put(good), put(bad)])).rejects.toMatchObject({ name: 'PortError', code: 'INVALID' });
    expect(await store.visibleEntries({ repositoryId: 8, ref: MAIN, generation: 1 }, null, 10)).toEqual([]);
    await store.close();
  });
});
