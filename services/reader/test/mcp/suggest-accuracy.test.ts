import type { SuggestPathsOutput } from '@gitdex/contracts';
import { resolveDeps } from '../../src/deps';
import { suggestPaths } from '../../src/tools/suggest-paths';
import { seedRepository } from '../support/documents';
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
    if ((answer.structured as SuggestPathsOutput).suggestions[0]?.path === c.expected) hits += 1;
  }
  expect(cases.length).toBeGreaterThan(100);
  expect(hits / cases.length).toBeGreaterThanOrEqual(0.95);
  await index.close();
});
