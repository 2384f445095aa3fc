import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { contentTermWords, foldText } from '@gitdex/terms';
import type { ContentPlan } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { MAIN, makeFile, put } from '../../../test/conformance/index-store.fixtures';
import { writeLayout5 } from './layout-5';

const dir = mkdtempSync(join(tmpdir(), 'gitdex-content-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REPO = 11;
const SNAPSHOT = { repositoryId: REPO, ref: MAIN, generation: 1 };
const SCOPE = { includeGenerated: true, afterPath: null, limit: 5000 };
const CONTENTS: Record<string, string | null> = {
  'src/retry.ts': 'export function retryAfterMs(response) {\n  return Number(response.headers["retry-after"]) * 1000;\n}\n',
  'src/Upper.ts': 'export class HttpServer {}\n',
  'docs/guide.md': '# Guide\nCafé naïve, Straße\n',
  'assets/logo.png': null,
};
/** Enough files that the rebuild reads the stored contents in several pages. */
const MANY = 1_234;
const manyPath = (i: number) => `gen/v${String(i).padStart(4, '0')}.ts`;
for (let i = 0; i < MANY; i += 1) CONTENTS[manyPath(i)] = `const value${i} = ${i};\n`;
const sub = (text: string): ContentPlan => ({ op: 'substring', text });

/** The layouts of the content index before version 5, as those versions created them. */
const OLD_LAYOUTS = {
  1: null,
  2: `CREATE VIRTUAL TABLE file_text USING fts5(
  content, content='', contentless_delete=1, detail=none, tokenize='trigram case_sensitive 0'
);
INSERT INTO file_text (rowid, content) SELECT fid, content FROM file_bodies WHERE content IS NOT NULL;`,
  // Version 3's words: the folded trigrams only (those of the folded text, which has no humps).
  3: `CREATE VIRTUAL TABLE file_text USING fts5(
  words, content='', contentless_delete=1, detail=none, tokenize='ascii'
);
INSERT INTO file_text (rowid, words) SELECT fid, folded_words(content) FROM file_bodies WHERE content IS NOT NULL;`,
  // Version 4's words: the trigrams, folded and humps, without the hump grams (5- and 10-digit words only).
  4: `CREATE VIRTUAL TABLE file_text USING fts5(
  words, content='', contentless_delete=1, detail=none, tokenize='ascii'
);
INSERT INTO file_text (rowid, words) SELECT fid, trigram_words(content) FROM file_bodies WHERE content IS NOT NULL;`,
} as const;

/** Writes the files as layout 5 did, then turns the file back into one of an older version. */
function oldIndexFile(version: 1 | 2 | 3 | 4): string {
  const file = join(dir, `v${version}.sqlite`);
  writeLayout5(
    file,
    Object.entries(CONTENTS).map(([path, content]) => makeFile({ repositoryId: REPO, path, content })),
  );
  const db = new Database(file);
  db.function('folded_words', (content: unknown) => contentTermWords(foldText(String(content))));
  db.function('trigram_words', (content: unknown) =>
    contentTermWords(String(content))
      .split(' ')
      .filter((word) => word.length === 5 || word.length === 10)
      .join(' '),
  );
  db.exec(`DROP TABLE file_text`);
  const layout = OLD_LAYOUTS[version];
  if (layout !== null) db.exec(layout);
  db.prepare(`UPDATE index_meta SET value = ? WHERE key = 'schema_version'`).run(String(version));
  db.close();
  return file;
}

function layoutOf(file: string): { version: string; contentIndex: string } {
  const db = new Database(file, { readonly: true });
  try {
    const version = db.prepare<[], { value: string }>(`SELECT value FROM index_meta WHERE key = 'schema_version'`).get()?.value ?? '';
    const contentIndex = db.prepare<[], { sql: string }>(`SELECT sql FROM sqlite_schema WHERE name = 'file_text'`).get()?.sql ?? '';
    return { version, contentIndex };
  } finally {
    db.close();
  }
}

describe.each([1, 2, 3, 4] as const)('a version %i index file', (version) => {
  it('opens with its content index rebuilt as trigram words from the stored contents, and searches right', async () => {
    const file = oldIndexFile(version);
    expect(layoutOf(file).version).toBe(String(version));
    const store = new SqliteIndexStore({ file });
    await store.ensureReady();
    const found = async (plan: ContentPlan) => (await store.searchCandidates(SNAPSHOT, plan, SCOPE)).map((c) => c.path);
    expect(await found(sub('retryafterms'))).toEqual(['src/retry.ts']);
    expect(await found(sub('httpserver'))).toEqual(['src/Upper.ts']);
    // A case-sensitive search asks for the humps and grams (ttpSer, tryAft), which only the rebuilt index holds.
    expect(await found({ op: 'substring', text: 'retryafterms', cased: 'retryAfterMs' })).toEqual(['src/retry.ts']);
    expect(await found({ op: 'substring', text: 'httpserver', cased: 'HttpServer' })).toEqual(['src/Upper.ts']);
    expect(await found(sub('café naïve'))).toEqual(['docs/guide.md']);
    expect(await found(sub('export'))).toEqual(['src/Upper.ts', 'src/retry.ts']);
    expect(await found(sub('nowhere'))).toEqual([]);
    expect(await found({ op: 'all' })).toHaveLength(MANY + 3);
    expect(await found(sub('const value'))).toHaveLength(MANY);
    expect(await found(sub(`${MANY - 1};`))).toEqual([manyPath(MANY - 1)]);
    // White space ends terms: a phrase is narrowed by its words' terms alone (value1, value10-19, value100-199, value1000 on).
    expect(await found(sub('value1 ='))).toHaveLength(1 + 10 + 100 + (MANY - 1000));
    // The rebuilt index keeps working for writes: a new version is found, a rewritten one forgotten.
    await store.writeFiles([put(makeFile({ repositoryId: REPO, path: 'src/Upper.ts', content: 'export class WebSocketServer {}\n' }))]);
    expect(await found(sub('httpserver'))).toEqual([]);
    expect(await found(sub('websocketserver'))).toEqual(['src/Upper.ts']);
    await store.close();
    const after = layoutOf(file);
    expect(after.version).toBe('8');
    expect(after.contentIndex).toMatch(/tokenize='ascii'/);
    // Opening again rebuilds nothing and still answers.
    const again = new SqliteIndexStore({ file });
    expect((await again.searchCandidates(SNAPSHOT, sub('retryafterms'), SCOPE)).map((c) => c.path)).toEqual(['src/retry.ts']);
    await again.close();
  });
});
