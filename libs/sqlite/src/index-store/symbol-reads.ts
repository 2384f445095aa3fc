import type { Database, Statement } from 'better-sqlite3';
import type { FileFlags, SymbolDefinition, SymbolKind } from '@gitdex/contracts';
import type { BlobOutline, FileSymbols, SymbolFile, SymbolHit, SymbolNameQuery, SymbolPage, SymbolScope } from '@gitdex/ports';
import { foldersOf, nestingOf, tierOf } from '@gitdex/terms';
import { parseDefinitions } from './symbol-store';
import { PLAIN, type Visibility } from './visibility';

type Params = Record<string, unknown>;

interface FileColumns {
  path: string;
  blob_sha: string;
  language: string | null;
  commit_sha: string;
  flags: string;
}

const COLUMNS = `f.path, f.blob_sha, f.language, f.summary ->> '$.commitSha' AS commit_sha, f.summary -> '$.flags' AS flags`;

/** A visible file of the snapshot (@s, @g, and the underlay's parameters when layered), within the scope's filters. */
const visibleFile = (vis: Visibility) => `${vis.scope('f')} AND f.kind = 'file' AND ${vis.visible('f')}
  AND (@language IS NULL OR f.language = @language)
  AND (@prefix IS NULL OR substr(f.path, 1, length(@prefix)) = @prefix)`;

export interface SymbolStatements {
  byName: Statement<Params, FileColumns & { defs: string }>;
  byPattern: Statement<Params, FileColumns & { defs: string }>;
  outline: Statement<Params, FileColumns & { outline: string | null }>;
  /** Whether a visible file of the snapshot defines the name (@name). */
  nameVisible: Statement<Params, number>;
}

/**
 * The symbol reads of one visibility (plain or layered). Each starts from the rows of one name
 * (primary key range) and keeps those whose blob a visible file of the snapshot names
 * (files_by_blob_id), in path order.
 *
 * `CROSS JOIN` pins that order of the loops: left to itself, SQLite walks every file of the
 * scope in path order (files_by_path, to skip the sort) and probes the name for each, which
 * reads all 54,000 files of a large ref for a name defined in nine of them
 * (docs/design/symbols-storage.md, "Reads").
 */
export function prepareSymbolStatements(db: Database, vis: Visibility = PLAIN): SymbolStatements {
  return {
    byName: db.prepare(`SELECT ${COLUMNS}, n.defs FROM symbol_names n CROSS JOIN files f ON f.blob_id = n.blob_id
      WHERE n.name = @name AND ${visibleFile(vis)} ORDER BY f.path LIMIT @limit`),
    byPattern: db.prepare(`SELECT ${COLUMNS}, n.defs FROM symbol_names n CROSS JOIN files f ON f.blob_id = n.blob_id
      WHERE n.name GLOB @glob AND ${visibleFile(vis)} ORDER BY f.path, n.name LIMIT @limit`),
    outline: db.prepare(`SELECT ${COLUMNS}, bs.outline FROM files f LEFT JOIN blob_symbols bs ON bs.blob_id = f.blob_id
      WHERE f.path = @path AND ${visibleFile(vis)} LIMIT 1`),
    nameVisible: db.prepare(`SELECT 1 FROM symbol_names n CROSS JOIN files f ON f.blob_id = n.blob_id WHERE n.name = @name AND ${visibleFile(vis)} LIMIT 1`).pluck() as Statement<Params, number>,
  };
}

/** The parameters every statement takes: the snapshot's (scopeParams of the store) and the query's filters. */
export function withScope(snapshotParams: Params, scope: SymbolScope): Params {
  return { ...snapshotParams, language: scope.language ?? null, prefix: scope.pathPrefix ?? null };
}

function fileOf(row: FileColumns, snapshotIndex: number): SymbolFile {
  return { snapshotIndex, path: row.path, blobSha: row.blob_sha, commitSha: row.commit_sha, language: row.language, flags: JSON.parse(row.flags) as FileFlags };
}

/** GLOB with only `*` special: the other GLOB operators of the pattern match themselves. */
export function globOf(pattern: string): string {
  return pattern.replace(/[?[\]]/g, (char) => `[${char}]`);
}

/** Whether a definition's container is `container` or ends with ".container". */
export function inContainer(definition: SymbolDefinition, container: string | undefined): boolean {
  if (container === undefined) return true;
  const actual = definition.container;
  return actual !== null && (actual === container || actual.endsWith(`.${container}`));
}

/** Definitions of one snapshot's visible files matching the query, in path then line order, at most `limit`. */
export function findSymbols(statements: SymbolStatements, params: Params, snapshotIndex: number, query: SymbolNameQuery & { kind?: SymbolKind }, limit: number): SymbolHit[] {
  const hits: SymbolHit[] = [];
  // Rows are (file, name) pairs; a row's definitions are filtered here, so more rows may be needed than hits.
  // Iterated, not fetched whole: the walk stops at the first file past `limit` hits.
  const rows = query.match === 'exact' ? statements.byName.iterate({ ...params, name: query.name, limit: -1 }) : statements.byPattern.iterate({ ...params, glob: globOf(query.pattern), limit: -1 });
  let previousPath = '';
  let pending: SymbolHit[] = [];
  const flush = () => {
    pending.sort((a, b) => a.definition.line - b.definition.line);
    hits.push(...pending);
    pending = [];
  };
  for (const row of rows) {
    if (row.path !== previousPath) {
      flush();
      if (hits.length >= limit) break;
      previousPath = row.path;
    }
    const file = fileOf(row, snapshotIndex);
    for (const definition of parseDefinitions(row.defs)) {
      if (query.kind !== undefined && definition.kind !== query.kind) continue;
      if (query.match === 'exact' && !inContainer(definition, query.container)) continue;
      pending.push({ ...file, definition });
    }
  }
  flush();
  return hits.slice(0, limit);
}

/**
 * One snapshot's answer to rankedSymbols from all its hits (findSymbols' path order): the hits
 * of the first `files` files in file order (tier, least nesting, folders, path), in path order,
 * and how many hits there are in all. SQLite reads a name's rows in a few milliseconds even
 * for thousands of definitions, so it orders them here rather than in SQL.
 */
export function rankedSymbols(hits: SymbolHit[], files: number): SymbolPage {
  const byPath = new Map<string, { key: number[]; path: string; hits: SymbolHit[] }>();
  for (const hit of hits) {
    const file = byPath.get(hit.path);
    const nesting = nestingOf(hit.definition.container);
    if (file) {
      file.hits.push(hit);
      file.key[1] = Math.min(file.key[1] as number, nesting);
    } else byPath.set(hit.path, { key: [tierOf(hit.path, hit.flags), nesting, foldersOf(hit.path)], path: hit.path, hits: [hit] });
  }
  const compare = (a: { key: number[]; path: string }, b: { key: number[]; path: string }) =>
    a.key.reduce((order, value, i) => order || value - (b.key[i] as number), 0) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  const first = [...byPath.values()].sort(compare).slice(0, Math.max(files, 0));
  first.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { hits: first.flatMap((file) => file.hits), total: hits.length };
}

export function fileSymbols(statements: SymbolStatements, params: Params, path: string): FileSymbols | null {
  const row = statements.outline.get({ ...params, language: null, prefix: null, path });
  if (!row) return null;
  const { snapshotIndex: _index, ...file } = fileOf(row, 0);
  return { ...file, symbols: row.outline === null ? null : (JSON.parse(row.outline) as BlobOutline) };
}

/** Whether a visible file of the snapshot (params: withScope's) defines `name`. */
export function nameVisible(statements: SymbolStatements, params: Params, name: string): boolean {
  return statements.nameVisible.get({ ...params, name }) !== undefined;
}
