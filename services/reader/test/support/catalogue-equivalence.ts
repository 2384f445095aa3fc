import { ancestorsOf } from '@gitdex/terms';
import type { IndexStore, Snapshot } from '@gitdex/ports';
import { loadCatalogue, loadSummaries } from '../../src/index-layers/catalogue/load';
import { suggestQuery } from '../../src/suggest/candidates';
import { makeCaseSets } from './suggest-cases';

/** Paths whose order differs between UTF-16 and code points, or that need more than one byte. */
export const AWKWARD_PATHS = ['ü/é.ts', 'z/\u{1F600}.md', 'z/\uFF01.md'];

/**
 * Loads the catalogue of `snapshot` (holding `paths`) from `index` and holds it to the index's
 * own answers: suggestCandidates for the suggestion cases of the tree (misspelt, partial,
 * misplaced, restyled), listFolders and listFiles for every folder, depth and page.
 */
export async function expectCatalogueMatchesIndex(
  index: IndexStore,
  snapshot: Snapshot,
  paths: string[],
  what: { suggestions?: boolean; listings?: boolean } = { suggestions: true, listings: true },
): Promise<void> {
  const catalogue = await loadCatalogue(index, snapshot, { maxFiles: 100_000 });
  expect(catalogue?.size).toBe(paths.length);
  if (!catalogue) return;
  if (what.suggestions) {
    const { oneAnswer, ambiguous } = makeCaseSets(paths, { perKind: 8, seed: 5 });
    const queries = [...oneAnswer, ...ambiguous].map((c) => c.query).concat(['src/', 'index', 'a', 'zz-no-such-thing', 'README.md', '.ts', 'x/y/z']);
    expect(queries.length).toBeGreaterThan(100);
    for (const query of queries) {
      for (const limit of [100, 5]) {
        const request = { ...suggestQuery(query), limit };
        expect({ query, limit, candidates: catalogue.candidates(request) }).toEqual({ query, limit, candidates: await index.suggestCandidates(snapshot, request) });
      }
    }
  }
  if (what.listings) {
    expect(catalogue.listsFiles).toBe(paths.length === 0);
    expect(await loadSummaries(index, catalogue, snapshot)).toBe(true);
    const folders = [...new Set(paths.flatMap((p) => ancestorsOf(p)))].concat(['no/such/folder', paths[0] as string]);
    expect(folders.length).toBeGreaterThan(20);
    for (const folder of folders) {
      for (const depth of [1, 2, 64]) {
        const scope = { ...snapshot, folder, depth };
        expect({ scope, folders: catalogue.listFolders(scope) }).toEqual({ scope, folders: await index.listFolders(scope) });
        let after: string | null = null;
        for (let page = 0; page < 200; page += 1) {
          const expected = await index.listFiles(scope, after, 7);
          expect({ scope, after, page: catalogue.listFiles(scope, after, 7) }).toEqual({ scope, after, page: expected });
          if (expected.files.length < 7) break;
          after = expected.files[expected.files.length - 1]!.path;
        }
        expect(catalogue.listFiles(scope, null, 0)).toEqual(await index.listFiles(scope, null, 0));
      }
    }
  }
}
