import { SqliteIndexStore } from '@gitdex/sqlite';
import { composeIndex } from '../../../src/index-layers/compose';
import { countedIndex, REF } from '../../support/counted-index';
import { pushCommit } from '../../support/documents';
import { makeRefState } from '../../../../../test/conformance/index-store.fixtures';

describe('MetadataReuse: repositories and ref states', () => {
  it('reuses ref states only for the moment it is told, then sees the flip', async () => {
    const index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    let clock = 0;
    const cached = composeIndex(index, { metadataTtlMs: 50, now: () => clock });
    expect(await cached.listRefStates(1)).toEqual([]);
    await index.putRefState(makeRefState(1, REF, { indexedAt: new Date().toISOString(), committedAt: null }));
    clock += 20;
    expect(await cached.listRefStates(1)).toEqual([]);
    clock += 40;
    expect(await cached.listRefStates(1)).toHaveLength(1);
    // Everything not cached goes straight through.
    expect(await cached.getRefState(1, REF)).toMatchObject({ generation: 1 });
    expect(await cached.ping()).toBe(true);
  });

  it('past half its time, answers at once and looks the state up again in the background', async () => {
    const { index, calls } = await countedIndex();
    let now = 0;
    const cached = composeIndex(index, { metadataTtlMs: 100, now: () => now });
    const generation = async () => (await cached.listRefStates(1))[0]?.generation;
    expect(await generation()).toBe(1);
    now = 40;
    expect(await generation()).toBe(1);
    expect(calls('listRefStates')).toBe(1);
    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@2', put: { 'src/a.ts': 'changed\n' } });
    now = 60;
    expect(await generation()).toBe(1);
    expect(calls('listRefStates')).toBe(2);
    now = 70;
    expect(await generation()).toBe(2);
    expect(calls('listRefStates')).toBe(2);
    // Without calls for longer than its time, the answer is not used at all.
    now = 1_000;
    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@3', put: { 'src/a.ts': 'again\n' } });
    expect(await generation()).toBe(3);
    expect(calls('listRefStates')).toBe(3);
  });
});
