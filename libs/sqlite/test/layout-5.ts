import Database from 'better-sqlite3';
import { fileDocumentId, type FileDocument } from '@gitdex/contracts';
import { contentTermWords } from '@gitdex/terms';

/**
 * An index file as the release with layout 5 wrote it (content on each file row, its content
 * index keyed by file row), built here from that release's DDL and row shapes so the
 * upgrade tests start from what an upgrader really has on disk.
 */
const LAYOUT_5_DDL = `
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
  summary TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS files_by_path ON files (scope_id, path, from_gen, retired_gen, depth);
CREATE INDEX IF NOT EXISTS files_by_blob ON files (scope_id, blob_sha, path);
CREATE INDEX IF NOT EXISTS files_by_name ON files (scope_id, name_lower);
CREATE INDEX IF NOT EXISTS files_by_path_lower ON files (scope_id, path_lower);
CREATE INDEX IF NOT EXISTS files_for_stats ON files (scope_id, language, category, from_gen, retired_gen, size);
CREATE INDEX IF NOT EXISTS files_retired ON files (scope_id, retired_gen) WHERE retired_gen IS NOT NULL;
CREATE INDEX IF NOT EXISTS files_unsearchable ON files (scope_id, path, from_gen) WHERE kind = 'file' AND (summary ->> '$.flags.binary' = 1 OR summary ->> '$.flags.tooLarge' = 1);

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

CREATE VIRTUAL TABLE IF NOT EXISTS file_text USING fts5(
  words, content='', contentless_delete=1, detail=none, tokenize='ascii'
);
CREATE TABLE IF NOT EXISTS file_raw (
  fid INTEGER PRIMARY KEY,
  bytes BLOB NOT NULL
) STRICT;
INSERT INTO index_meta (key, value) VALUES ('schema_version', '5');
`;

/** Writes the documents (puts; a retired version carries retiredAtGeneration) as layout 5 did. */
export function writeLayout5(file: string, docs: FileDocument[]): void {
  const db = new Database(file);
  try {
    db.exec(LAYOUT_5_DDL);
    const scope = db.prepare<[number, string], number>(`SELECT scope_id FROM scopes WHERE repository_id = ? AND ref = ?`).pluck();
    const insertScope = db.prepare(`INSERT OR IGNORE INTO scopes (repository_id, ref) VALUES (?, ?)`);
    const insertFile = db.prepare(`INSERT INTO files (id, scope_id, path, depth, from_gen, retired_gen, blob_sha, kind, language, category, size, name_lower, path_lower, summary)
      VALUES (@id, @s, @path, @depth, @fromGen, @retiredGen, @blobSha, @kind, @language, @category, @size, @nameLower, @pathLower, @summary)`);
    const insertBody = db.prepare(`INSERT INTO file_bodies (fid, content, tokens, trigrams) VALUES (?, ?, ?, ?)`);
    const insertText = db.prepare(`INSERT INTO file_text (rowid, words) VALUES (?, ?)`);
    const insertRaw = db.prepare(`INSERT INTO file_raw (fid, bytes) VALUES (?, ?)`);
    const insertFolder = db.prepare(`INSERT OR IGNORE INTO file_folders (scope_id, folder, fid, folder_depth, from_gen, retired_gen) VALUES (?, ?, ?, ?, ?, ?)`);
    const insertTerm = db.prepare(`INSERT OR IGNORE INTO file_terms (scope_id, kind, term, fid) VALUES (?, ?, ?, ?)`);
    db.transaction(() => {
      for (const doc of docs) {
        const { content, tokens, trigrams, retiredAtGeneration, contentBase64, ...summary } = doc;
        insertScope.run(doc.repositoryId, doc.ref);
        const s = scope.get(doc.repositoryId, doc.ref) as number;
        const retiredGen = retiredAtGeneration ?? null;
        const fid = Number(
          insertFile.run({
            id: fileDocumentId(doc.repositoryId, doc.ref, doc.path, doc.fromGeneration),
            s,
            path: doc.path,
            depth: doc.depth,
            fromGen: doc.fromGeneration,
            retiredGen,
            blobSha: doc.blobSha,
            kind: doc.kind,
            language: doc.language,
            category: doc.category,
            size: doc.size,
            nameLower: doc.nameLower,
            pathLower: doc.pathLower,
            summary: JSON.stringify(summary),
          }).lastInsertRowid,
        );
        insertBody.run(fid, content, JSON.stringify(tokens), JSON.stringify(trigrams));
        if (content !== null) insertText.run(fid, contentTermWords(content));
        if (contentBase64 !== undefined) insertRaw.run(fid, Buffer.from(contentBase64, 'base64'));
        for (const folder of new Set(doc.ancestors)) {
          if (folder !== '') insertFolder.run(s, folder, fid, folder.split('/').length, doc.fromGeneration, retiredGen);
        }
        for (const term of trigrams) insertTerm.run(s, 0, term, fid);
        for (const term of tokens) insertTerm.run(s, 1, term, fid);
      }
    })();
  } finally {
    db.close();
  }
}
