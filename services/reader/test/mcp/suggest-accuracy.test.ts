import { resolveDeps } from '../../src/deps';
import { suggestPaths } from '../../src/tools/suggest-paths';
import { suggestQuery } from '../../src/suggest/candidates';
import { pushCommit, seedRepository } from '../support/documents';
import { loadPaths, makeCases } from '../support/suggest-cases';
import { createIndex } from '../support/world';

// End to end: candidates from the SQLite index, ranking in the reader, through the tool.
test.each(['pino', 'kafkajs'])('suggest_paths on the SQLite index: top-1 >= 95%% of the cases of %s with one right answer', async (name) => {
  const index = await createIndex('sqlite');
  const paths = loadPaths(name);
  await seedRepository(index, { id: 1, fullName: `fixtures/${name}`, files: Object.fromEntries(paths.map((p) => [p, 'x\n'])) });
  const deps = resolveDeps({ index });
  const cases = makeCases(paths, { perKind: 15, seed: 23 });
  let hits = 0;
  for (const c of cases) {
    const answer = await suggestPaths(deps, null, { repository: `fixtures/${name}`, query: c.query, limit: 1 });
    if (answer.structured.suggestions[0]?.path === c.expected) hits += 1;
  }
  expect(cases.length).toBeGreaterThan(100);
  expect(hits / cases.length).toBeGreaterThanOrEqual(0.95);
  await index.close();
});

// The SQLite index cuts the candidate sum at the k-th best score before looking rows up;
// removed versions above the cut must not cost visible files their places.
test('SQLite candidates after removals equal those of an index that only ever had the remaining files', async () => {
  const paths = Array.from({ length: 40 }, (_, i) => `src/widgets/widget-${String(i).padStart(2, '0')}.ts`);
  const removed = paths.filter((_, i) => i % 4 !== 0);
  const changed = await createIndex('sqlite');
  const { state } = await seedRepository(changed, { id: 1, fullName: 'o/changed', files: Object.fromEntries(paths.map((p) => [p, 'x\n'])) });
  const next = await pushCommit(changed, { repositoryId: 1, ref: state.ref, label: 'remove most widgets', remove: removed });
  const fresh = await createIndex('sqlite');
  const kept = paths.filter((p) => !removed.includes(p));
  const seeded = await seedRepository(fresh, { id: 1, fullName: 'o/changed', files: Object.fromEntries(kept.map((p) => [p, 'x\n'])) });
  for (const query of ['src/widgets/widget-1', 'widget.ts', 'src/widgets/']) {
    const ask = (index: typeof changed, generation: number) => index.suggestCandidates({ repositoryId: 1, ref: state.ref, generation }, { ...suggestQuery(query), limit: 8 });
    const got = await ask(changed, next.generation);
    expect(got.map((c) => [c.path, c.score])).toEqual((await ask(fresh, seeded.state.generation)).map((c) => [c.path, c.score]));
    expect(got.length).toBe(Math.min(8, kept.length));
  }
  await Promise.all([changed.close(), fresh.close()]);
});
