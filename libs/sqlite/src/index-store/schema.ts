import type { Database } from 'better-sqlite3';
import { contentTermWords } from '@gitdex/terms';
import { RAW_BYTES_DDL } from './raw-bytes';
import { SYMBOLS_DDL } from './symbol-store';
import { buildNameList, NAME_LIST_DDL } from './symbol-name-list';

/** Bump when the layout changes; `ensureSchema` refuses a file written by a newer layout. */
export const INDEX_SCHEMA_VERSION = 8;

/**
 * Layout (all text compared with BINARY collation = UTF-8 byte order = code point order,
 * the same order as an Elasticsearch keyword sort):
 *
 * - `scopes`: one small integer per (repository, ref), so the big tables repeat an
 *   integer instead of the ref name.
 * - `files`: one row per file version, the columns every filter and sort needs, the
 *   FileSummary (minus retiredAtGeneration, which lives in its own column) as JSON, and
 *   `blob_id`, the row of `blobs` holding its content (NULL only on a row written by layout
 *   5 or older that the blob migration has not reached yet).
 * - `blobs`: the content of each (repository, blob sha), stored once however many refs,
 *   generations and paths hold the blob, and `blob_raw` its exact bytes (read fidelity). A
 *   blob goes with the last file row naming it.
 * - `file_bodies`: the path-derived suggestion tokens and trigrams of a file version, kept
 *   apart so scans of `files` never read them; `content` is NULL on every row except those
 *   written by layout 5 or older and not yet migrated.
 * - `file_folders`: one row per (non-root) ancestor folder of a file version, with the
 *   version's generations copied in, so folder counts are a covering-index scan.
 * - `file_terms`: one row per distinct trigram (kind 0) and token (kind 1) of a file
 *   version, for exact suggestion scoring.
 * - `file_text`: the content index of search_code, one row per blob keyed by blob_id (and,
 *   on a row of layout 5 or older not yet migrated, per file row keyed by its fid: see
 *   CONTENT_KEY); an FTS5 table of one word per
 *   distinct folded trigram, hump trigram and hump gram of each stored content (libs/terms'
 *   contentTermWords: the fold and the left-out terms are the planner's), so the plain `ascii`
 *   tokenizer only splits at spaces. Contentless (the text stays in `blobs` only) and
 *   without positions (detail=none): it answers "holds these terms", the service verifies.
 *   FTS5's own `trigram` tokenizer would fold case by SQLite's rules, not the planner's, and
 *   writes more slowly. A file of an older layout has its content index built again when it
 *   opens (UPGRADING.md).
 *
 * Derived rows are removed by primary key using the ancestors/tokens/trigrams stored
 * with the file, so no secondary index on `fid` slows down bulk writes.
 */
const CONTENT_INDEX_DDL = `CREATE VIRTUAL TABLE IF NOT EXISTS file_text USING fts5(
  words, content='', contentless_delete=1, detail=none, tokenize='ascii'
);`;

/**
 * The key of a file row's content in `file_text`: its blob's id, or on a row of layout 5 or
 * older not yet migrated its own fid, as that layout wrote it. The migration gives a blob
 * the fid of the first row it meets holding it, so that row's entry becomes the blob's
 * without computing its words again; blobs written after the upgrade get ids above every
 * fid of the upgraded file (`blob_id_floor`), so the two kinds of key never meet.
 */
export const CONTENT_KEY = `coalesce(f.blob_id, f.fid)`;

/** Created after `files.blob_id` exists (an older file gains the column first). */
const BLOB_DDL = `
CREATE TABLE IF NOT EXISTS blobs (
  blob_id INTEGER PRIMARY KEY,
  repository_id INTEGER NOT NULL,
  blob_sha TEXT NOT NULL,
  content TEXT,
  UNIQUE (repository_id, blob_sha)
) STRICT;
CREATE INDEX IF NOT EXISTS files_by_blob_id ON files (blob_id);
`;

/**
 * The files search_code could not search (binary, or too large to store), as the content
 * search's queries name them: the partial index files_unsearchable holds only those, so
 * counting them for a search (every search does) reads a few rows, not every file of the
 * scope with its JSON summary (166 ms against 6.7 ms for 54,746 files, 2,077 binary).
 */
export const UNSEARCHABLE_FILE = `kind = 'file' AND (summary ->> '$.flags.binary' = 1 OR summary ->> '$.flags.tooLarge' = 1)`;

const DDL = `
CREATE TABLE IF NOT EXISTS index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID, STRICT;

CREATE TABLE IF NOT EXISTS repositories (
  repository_id INTEGER PRIMARY KEY,
  full_name_lower TEXT NOT NULL,
  doc TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS repositories_by_name ON repositories (full_name_lower, repository_id);

CREATE TABLE IF NOT EXISTS ref_states (
  repository_id INTEGER NOT NULL,
  ref TEXT NOT NULL,
  doc TEXT NOT NULL,
  PRIMARY KEY (repository_id, ref)
) WITHOUT ROWID, STRICT;

CREATE TABLE IF NOT EXISTS scopes (
  scope_id INTEGER PRIMARY KEY,
  repository_id INTEGER NOT NULL,
  ref TEXT NOT NULL,
  UNIQUE (repository_id, ref)
) STRICT;

CREATE TABLE IF NOT EXISTS files (
  fid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  scope_id INTEGER NOT NULL,
  path TEXT NOT NULL,
  depth INTEGER NOT NULL,
  from_gen INTEGER NOT NULL,
  retired_gen INTEGER,
  blob_sha TEXT NOT NULL,
  kind TEXT NOT NULL,
  language TEXT,
  category TEXT NOT NULL,
  size INTEGER NOT NULL,
  name_lower TEXT NOT NULL,
  path_lower TEXT NOT NULL,
  summary TEXT NOT NULL,
  blob_id INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS files_by_path ON files (scope_id, path, from_gen, retired_gen, depth);
CREATE INDEX IF NOT EXISTS files_by_blob ON files (scope_id, blob_sha, path);
CREATE INDEX IF NOT EXISTS files_by_name ON files (scope_id, name_lower);
CREATE INDEX IF NOT EXISTS files_by_path_lower ON files (scope_id, path_lower);
CREATE INDEX IF NOT EXISTS files_for_stats ON files (scope_id, language, category, from_gen, retired_gen, size);
CREATE INDEX IF NOT EXISTS files_retired ON files (scope_id, retired_gen) WHERE retired_gen IS NOT NULL;
CREATE INDEX IF NOT EXISTS files_unsearchable ON files (scope_id, path, from_gen) WHERE ${UNSEARCHABLE_FILE};

CREATE TABLE IF NOT EXISTS file_bodies (
  fid INTEGER PRIMARY KEY,
  content TEXT,
  tokens TEXT NOT NULL,
  trigrams TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS file_folders (
  scope_id INTEGER NOT NULL,
  folder TEXT NOT NULL,
  fid INTEGER NOT NULL,
  folder_depth INTEGER NOT NULL,
  from_gen INTEGER NOT NULL,
  retired_gen INTEGER,
  PRIMARY KEY (scope_id, folder, fid)
) WITHOUT ROWID, STRICT;

CREATE TABLE IF NOT EXISTS file_terms (
  scope_id INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  term TEXT NOT NULL,
  fid INTEGER NOT NULL,
  PRIMARY KEY (scope_id, kind, term, fid)
) WITHOUT ROWID, STRICT;

${CONTENT_INDEX_DDL}
`;

/** Connection settings: WAL lets readers run beside the single writer; NORMAL sync is safe with WAL. */
export function configureConnection(db: Database): void {
  if (db.name !== ':memory:' && db.name !== '') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -65536');
}

/** Contents read per step while the content index is rebuilt (better-sqlite3 runs one statement at a time). */
const REBUILD_PAGE = 500;

/** Drops the content index of a layout 4 or older file and writes it again from its rows' contents. */
function rebuildLegacyContentIndex(db: Database): void {
  db.exec(`DROP TABLE IF EXISTS file_text`);
  db.exec(CONTENT_INDEX_DDL);
  const page = db.prepare<[number, number], { fid: number; content: string }>(`SELECT fid, content FROM file_bodies WHERE fid > ? AND content IS NOT NULL ORDER BY fid LIMIT ?`);
  const insert = db.prepare<[number, string]>(`INSERT INTO file_text (rowid, words) VALUES (?, ?)`);
  let after = 0;
  for (;;) {
    const rows = page.all(after, REBUILD_PAGE);
    for (const row of rows) insert.run(row.fid, contentTermWords(row.content));
    if (rows.length < REBUILD_PAGE) return;
    after = (rows[rows.length - 1] as { fid: number }).fid;
  }
}

export function ensureSchema(db: Database): void {
  db.transaction(() => {
    db.exec(DDL);
    const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('files')`).all();
    if (!columns.some((column) => column.name === 'blob_id')) db.exec(`ALTER TABLE files ADD COLUMN blob_id INTEGER`);
    db.exec(BLOB_DDL);
    db.exec(RAW_BYTES_DDL);
    // Layout 7 adds the symbol tables only: a file of layout 6 gains them empty, and its blobs
    // get symbols when they are parsed (symbol-store.ts).
    db.exec(SYMBOLS_DDL);
    // Layout 8 adds the list of distinct symbol names (did you mean, symbol-name-list.ts) and stores
    // no occurrences (find_references parses when asked): layout 7's rows of them go.
    db.exec(NAME_LIST_DDL);
    db.exec(`DROP TABLE IF EXISTS symbol_refs`);
    const row = db.prepare<[], { value: string }>(`SELECT value FROM index_meta WHERE key = 'schema_version'`).get();
    const found = row ? Number(row.value) : 0;
    if (found > INDEX_SCHEMA_VERSION) {
      throw new Error(`index file has schema version ${found}, this build understands up to ${INDEX_SCHEMA_VERSION}`);
    }
    // Version 1 files have no content index, versions 2 to 4 one of another form (3: without
    // the hump trigrams, 4: without the hump grams): build it from the stored contents, so
    // their rows answer searches until the blob migration (blob-migration.ts) moves them.
    if (found >= 1 && found <= 4) rebuildLegacyContentIndex(db);
    // Rows of an older layout keep their fid as content key until they move (CONTENT_KEY).
    if (found >= 1 && found <= 5) {
      db.prepare(`INSERT OR REPLACE INTO index_meta (key, value) SELECT 'blob_id_floor', coalesce(max(fid), 0) FROM files`).run();
    }
    // The list of names is built from the names stored.
    if (found >= 1 && found <= 7) buildNameList(db);
    if (found < INDEX_SCHEMA_VERSION) {
      db.prepare(`INSERT OR REPLACE INTO index_meta (key, value) VALUES ('schema_version', ?)`).run(String(INDEX_SCHEMA_VERSION));
    }
  }).immediate();
}
