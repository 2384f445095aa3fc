// find_references parses candidate files when asked (the index stores definitions only): only
// files holding the name as a whole word reach the parser, a blob parsed for a name is not parsed
// again, and a bound that stops the scan says so in the answer.
import type { BlobSymbols, FindReferencesOutput } from '@gitdex/contracts';
import { resolveDeps } from '../../src/deps';
import { poolReferenceParsing, type ReferenceParsing } from '../../src/symbols/reference-parsing';
import { scanReferences } from '../../src/symbols/reference-scan';
import { symbolTargets } from '../../src/symbols/searched';
import { seedRepository, type FileSpec } from '../support/documents';
import { call, connectInMemory, ok, textOf } from '../support/mcp-client';
import { createWorld, type World } from '../support/world';

const FILES: Record<string, FileSpec> = {
  'a.ts': "import { load } from './b';\nexport const x = load();\n",
  'b.ts': 'export function load() {\n  return 1;\n}\n',
  'c.ts': '// load is only named in this comment\nexport const y = "load";\n',
  'd.ts': 'export const loaded = reload();\n',
  'e.ts': 'load();\nload();\n',
  'f.php': { content: '<?php\n$load = 1;\necho $load;\n', language: 'PHP' },
};

let world: World;
const parsedPaths: string[] = [];
const pool = poolReferenceParsing();
const counting: ReferenceParsing = {
  languages: pool.languages,
  occurrences: (content, path, language, name): Promise<BlobSymbols> => {
    parsedPaths.push(path);
    return pool.occurrences(content, path, language, name);
  },
};

beforeAll(async () => {
  world = await createWorld('sqlite', { references: counting });
  await seedRepository(world.index, { id: 20, fullName: 'octo/refs', files: FILES });
});
beforeEach(() => {
  parsedPaths.length = 0;
});

test('parses only files holding the whole word, finds identifiers only, and parses a blob once per name', async () => {
  const deps = resolveDeps(world.deps);
  const targets = await symbolTargets(deps, null, { repository: 'octo/refs' });
  const first = await scanReferences(deps, targets, { name: 'load', matches: null });
  expect(first.cut).toBeNull();
  expect(first.files.map((f) => [f.path, f.occurrences.map((o) => `${o.line}:${o.role}`)])).toEqual([
    ['a.ts', ['1:import', '2:reference']],
    ['b.ts', ['1:definition']],
    ['e.ts', ['1:reference', '2:reference']],
    // PHP's $load holds the identifier load: "$" does not join words for the test.
    ['f.php', ['2:reference', '3:reference']],
  ]);
  // c.ts holds the word in a comment and a string: parsed, no occurrence; d.ts only inside longer words: never parsed.
  expect(parsedPaths.sort()).toEqual(['a.ts', 'b.ts', 'c.ts', 'e.ts', 'f.php']);
  parsedPaths.length = 0;
  const again = await scanReferences(deps, targets, { name: 'load', matches: null });
  expect(again.files).toEqual(first.files);
  expect(parsedPaths).toEqual([]);
});

test('a bound that stops the scan is said in the structured answer and the text', async () => {
  // A reader of its own (nothing parsed before) that may parse two files a call.
  const deps = resolveDeps({ index: world.index, references: counting, referenceBounds: { files: 2 } });
  const targets = await symbolTargets(deps, null, { repository: 'octo/refs' });
  const cut = await scanReferences(deps, targets, { name: 'load', matches: null });
  expect(cut.cut).toBe('files');
  expect(cut.files.map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
  expect(parsedPaths).toEqual(['a.ts', 'b.ts']);

  const bounded = await connectInMemory(resolveDeps({ index: world.index, references: counting, referenceBounds: { files: 2 } }));
  const stopped = await call(bounded.client, 'find_references', { name: 'load', repository: 'octo/refs' });
  expect(ok<FindReferencesOutput>(stopped)).toMatchObject({ complete: false, total_files: 2 });
  expect(textOf(stopped)).toContain('Note: incomplete: the search stopped after parsing 2 files;');
  await bounded.close();

  const { client, close } = await connectInMemory(world.deps);
  const complete = await call(client, 'find_references', { name: 'load', repository: 'octo/refs' });
  expect(ok<FindReferencesOutput>(complete)).toMatchObject({ complete: true, total_files: 4 });
  expect(textOf(complete)).not.toContain('incomplete');
  await close();
  expect(() => resolveDeps({ index: world.index, referenceBounds: { files: 0 } })).toThrow('reader: referenceBounds.files must be a positive whole number, got 0');
});
