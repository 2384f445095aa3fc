import type { Database, Statement } from 'better-sqlite3';
import { type FileFlags } from '@gitdex/contracts';
import { queryTermCodes, termWordOfCode } from '@gitdex/terms';
import type { ContentCandidate, ContentPlan, ContentScope, FileContent, UnsearchableCount, UnsearchableScope } from '@gitdex/ports';
import { CONTENT_KEY, UNSEARCHABLE_FILE } from './schema';
import { PLAIN, type Visibility } from './visibility';

interface CandidateRow {
  path: string;
  blob_sha: string;
  language: string | null;
  size: number;
  /** The summary's flags only, as JSON: the whole summary is ten times as long to parse. */
  flags: string;
}

/**
 * The plan as an FTS5 MATCH expression over the trigram words (contracts'
 * contentTermWords, as written); null means "no constraint". A substring becomes the AND
 * of its trigrams' words: a file that contains it holds every one. Words are `[0-9a-v]`
 * only, so they need no quoting (and none is an FTS5 keyword, which are upper case).
 */
export function matchExpression(plan: ContentPlan): string | null {
  switch (plan.op) {
    case 'all':
      return null;
    case 'substring': {
      const terms = queryTermCodes(plan.cased ?? plan.text);
      return terms.length === 0 ? null : `(${terms.map((code) => termWordOfCode(code)).join(' AND ')})`;
    }
    case 'and': {
      const parts = plan.of.map(matchExpression).filter((e): e is string => e !== null);
      return parts.length === 0 ? null : `(${parts.join(' AND ')})`;
    }
    case 'or': {
      const parts = plan.of.map(matchExpression);
      if (parts.length === 0 || parts.some((e) => e === null)) return null;
      return `(${parts.join(' OR ')})`;
    }
  }
}

function candidateOf(row: CandidateRow): ContentCandidate {
  const flags = JSON.parse(row.flags) as FileFlags;
  return { path: row.path, blobSha: row.blob_sha, language: row.language, flags, size: row.size };
}

const scopeFilter = (vis: Visibility) => `${vis.scope('f')} AND f.path > @after AND ${vis.visible('f')}
  AND (@language IS NULL OR f.language = @language)
  AND (@includeGenerated = 1 OR (f.summary ->> '$.flags.vendored' = 0 AND f.summary ->> '$.flags.generated' = 0))`;
/** Content is found by blob, or on a row of layout 5 not yet migrated by the row (CONTENT_KEY). */
const MATCHES = `${CONTENT_KEY} IN (SELECT rowid FROM file_text WHERE file_text MATCH @match)`;
/** A file row with its content: its blob's, or a legacy row's own. */
const CONTENT_FROM = `files f JOIN file_bodies b ON b.fid = f.fid LEFT JOIN blobs bl ON bl.blob_id = f.blob_id`;
const COLUMNS = `f.path, f.blob_sha, f.language, f.size, f.summary -> '$.flags' AS flags`;

type Params = Record<string, unknown>;
export interface ContentStatements {
  matching: Statement<Params, CandidateRow>;
  anyContent: Statement<Params, CandidateRow>;
  unsearchable: Statement<Params, CandidateRow>;
  contents: Statement<Params, FileContent>;
  countUnsearchable: Statement<Params, UnsearchableCount>;
}

/** Statements of search_code, prepared once per connection. */
export function prepareContentStatements(db: Database, vis: Visibility = PLAIN): ContentStatements {
  return {
    matching: db.prepare<Params, CandidateRow>(`SELECT ${COLUMNS} FROM files f
      WHERE ${scopeFilter(vis)} AND ${MATCHES}
      ORDER BY f.path, f.from_gen LIMIT @limit`),
    anyContent: db.prepare<Params, CandidateRow>(`SELECT ${COLUMNS} FROM ${CONTENT_FROM}
      WHERE ${scopeFilter(vis)} AND coalesce(bl.content, b.content) IS NOT NULL
      ORDER BY f.path, f.from_gen LIMIT @limit`),
    // UNSEARCHABLE_FILE is the partial index's condition, shared: SQLite uses a partial index only for a query whose WHERE holds it.
    unsearchable: db.prepare<Params, CandidateRow>(`SELECT ${COLUMNS} FROM files f
      WHERE ${scopeFilter(vis)} AND ${UNSEARCHABLE_FILE}
      ORDER BY f.path, f.from_gen LIMIT @limit`),
    countUnsearchable: db.prepare<Params, UnsearchableCount>(`SELECT
        coalesce(sum(f.summary ->> '$.flags.binary' = 1), 0) AS binary,
        coalesce(sum(f.summary ->> '$.flags.binary' = 0 AND f.summary ->> '$.flags.tooLarge' = 1), 0) AS tooLarge
      FROM files f WHERE ${scopeFilter(vis)} AND ${UNSEARCHABLE_FILE}`),
    contents: db.prepare<Params, FileContent>(`SELECT f.path AS path, coalesce(bl.content, b.content) AS content FROM ${CONTENT_FROM}
      WHERE ${vis.scope('f')} AND ${vis.visible('f')} AND f.path IN (SELECT value FROM json_each(@paths)) ORDER BY f.path`),
  };
}

function params(s: number, g: number, scope: ContentScope) {
  return { s, g, after: scope.afterPath ?? '', language: scope.language ?? null, includeGenerated: scope.includeGenerated ? 1 : 0, limit: Math.max(0, scope.limit) };
}

export function searchCandidates(st: ContentStatements, s: number, g: number, plan: ContentPlan, scope: ContentScope): ContentCandidate[] {
  if (scope.limit <= 0) return [];
  const match = matchExpression(plan);
  const rows = match === null ? st.anyContent.all(params(s, g, scope)) : st.matching.all({ ...params(s, g, scope), match });
  return rows.map(candidateOf);
}

export function unsearchableFiles(st: ContentStatements, s: number, g: number, scope: ContentScope): ContentCandidate[] {
  if (scope.limit <= 0) return [];
  return st.unsearchable.all(params(s, g, scope)).map(candidateOf);
}

export function countUnsearchable(st: ContentStatements, s: number, g: number, scope: UnsearchableScope): UnsearchableCount {
  const { limit: _unused, ...counted } = params(s, g, { ...scope, afterPath: null, limit: 0 });
  return st.countUnsearchable.get(counted) as UnsearchableCount;
}

export function readContents(st: ContentStatements, s: number, g: number, paths: string[]): FileContent[] {
  if (paths.length === 0) return [];
  return st.contents.all({ s, g, paths: JSON.stringify([...new Set(paths)]) });
}
