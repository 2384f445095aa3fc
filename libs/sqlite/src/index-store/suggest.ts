import type { Database } from 'better-sqlite3';
import { CANDIDATE_WEIGHTS as W, type SuggestCandidate, type SuggestQuery } from '@gitdex/ports';
import type { Stmt } from './statements';
import { LAYERED, PLAIN, VISIBLE_F, type Visibility } from './visibility';
import { prefixSuccessor } from './text-order';

const TRIGRAM = 0;
const TOKEN = 1;
const PREFIX_MATCH = `@prefix <> '' AND substr(f.path_lower, 1, length(@prefix)) = @prefix`;

/** Exact score of a file row from every clause: used for candidates found by the rare clauses. */
const FULL_SCORE = `
  c.rare
  + ${W.trigram} * (SELECT count(*) FROM file_terms t WHERE t.scope_id = @s AND t.kind = ${TRIGRAM} AND t.fid = c.fid AND t.term IN (SELECT value FROM json_each(@bigTrigrams)))
  + ${W.token} * (SELECT count(*) FROM file_terms t WHERE t.scope_id = @s AND t.kind = ${TOKEN} AND t.fid = c.fid AND t.term IN (SELECT value FROM json_each(@bigTokens)))
  + CASE WHEN @name <> '' AND f.name_lower = @name THEN ${W.sameName} ELSE 0 END
  + CASE WHEN ${PREFIX_MATCH} THEN ${W.pathPrefix} ELSE 0 END`;

/** The postings of every clause, each with its weight. */
const allHits = (vis: Visibility) => `
        SELECT fid, ${W.trigram} FROM file_terms WHERE ${vis.scope('')} AND kind = ${TRIGRAM} AND term IN (SELECT value FROM json_each(@trigrams))
        UNION ALL
        SELECT fid, ${W.token} FROM file_terms WHERE ${vis.scope('')} AND kind = ${TOKEN} AND term IN (SELECT value FROM json_each(@tokens))
        UNION ALL
        SELECT fid, ${W.sameName} FROM files WHERE @name <> '' AND ${vis.scope('')} AND name_lower = @name
        UNION ALL
        SELECT fid, ${W.pathPrefix} FROM files WHERE @prefix <> '' AND ${vis.scope('')} AND path_lower >= @prefix AND path_lower < @prefixEnd
          AND substr(path_lower, 1, length(@prefix)) = @prefix`;

function build(db: Database) {
  const p = <R>(sql: string): Stmt<R> => db.prepare(sql) as unknown as Stmt<R>;
  const v = <R>(sql: string): Stmt<R> => db.prepare(sql).pluck() as unknown as Stmt<R>;
  return {
    /** Postings of a term, counted up to @cap + 1 (is it frequent?). */
    termDocs: v<number>(`SELECT count(*) FROM (SELECT 1 FROM file_terms WHERE scope_id = @s AND kind = @kind AND term = @term LIMIT @cap + 1)`),
    nameDocs: v<number>(`SELECT count(*) FROM (SELECT 1 FROM files WHERE scope_id = @s AND name_lower = @name LIMIT @cap + 1)`),
    prefixDocs: v<number>(`SELECT count(*) FROM (SELECT 1 FROM files
      WHERE scope_id = @s AND path_lower >= @prefix AND path_lower < @prefixEnd LIMIT @cap + 1)`),
    /** Candidates: files matching at least one rare clause, scored on every clause. */
    pruned: p<SuggestCandidate>(`
      WITH hits (fid, points) AS (
        SELECT fid, 1 FROM file_terms WHERE scope_id = @s AND kind = ${TRIGRAM} AND term IN (SELECT value FROM json_each(@rareTrigrams))
        UNION ALL
        SELECT fid, ${W.token} FROM file_terms WHERE scope_id = @s AND kind = ${TOKEN} AND term IN (SELECT value FROM json_each(@rareTokens))
        UNION ALL
        SELECT fid, 0 FROM files WHERE @nameRare AND scope_id = @s AND name_lower = @name
        UNION ALL
        SELECT fid, 0 FROM files WHERE @prefixRare AND scope_id = @s AND path_lower >= @prefix AND path_lower < @prefixEnd
      ),
      c AS (SELECT fid, SUM(points) AS rare FROM hits GROUP BY fid)
      SELECT f.path AS path, f.blob_sha AS blobSha, ${FULL_SCORE} AS score
      FROM c JOIN files f ON f.fid = c.fid
      WHERE ${VISIBLE_F}
      ORDER BY score DESC, f.path ASC LIMIT @limit`),
    /**
     * Every file matching any clause, scored by summing the postings, joined to its row
     * (visibility, path) only when it scores at least the k-th best sum: on a large ref
     * most matching files score little, and joining all of them costs most of the query.
     * `cut` is that score (0 when fewer files match): with fewer than k rows back and a
     * cut above 0, versions that are not visible took places, and fullUncut answers.
     */
    full: p<SuggestCandidate & { cut: number }>(`
      WITH hits (fid, points) AS (${allHits(PLAIN)}),
      scored AS MATERIALIZED (SELECT fid, SUM(points) AS score FROM hits GROUP BY fid),
      cut (score) AS (SELECT coalesce((SELECT score FROM scored ORDER BY score DESC LIMIT 1 OFFSET @limit - 1), 0))
      SELECT f.path AS path, f.blob_sha AS blobSha, h.score AS score, (SELECT score FROM cut) AS cut
      FROM scored h JOIN files f ON f.fid = h.fid
      WHERE h.score >= (SELECT score FROM cut) AND ${VISIBLE_F}
      ORDER BY h.score DESC, f.path ASC LIMIT @limit`),
    fullUncut: p<SuggestCandidate>(`
      WITH hits (fid, points) AS (${allHits(PLAIN)})
      SELECT f.path AS path, f.blob_sha AS blobSha, h.score AS score
      FROM (SELECT fid, SUM(points) AS score FROM hits GROUP BY fid) h JOIN files f ON f.fid = h.fid
      WHERE ${VISIBLE_F}
      ORDER BY h.score DESC, f.path ASC LIMIT @limit`),
  };
}

/**
 * A layered ref (Snapshot.underlay) is scored by the full sum over both scopes: the pruning
 * above counts one scope's postings, and layered refs are pull requests, read far less often.
 */
export function prepareLayeredSuggest(db: Database): Stmt<SuggestCandidate> {
  return db.prepare(`
      WITH hits (fid, points) AS (${allHits(LAYERED)})
      SELECT f.path AS path, f.blob_sha AS blobSha, h.score AS score
      FROM (SELECT fid, SUM(points) AS score FROM hits GROUP BY fid) h JOIN files f ON f.fid = h.fid
      WHERE ${LAYERED.visible('f')}
      ORDER BY h.score DESC, f.path ASC LIMIT @limit`) as unknown as Stmt<SuggestCandidate>;
}

/** The arguments of prepareLayeredSuggest's statement for a query, beside the layered scope's. */
export function layeredSuggestArgs(query: SuggestQuery): Record<string, unknown> {
  const prefix = query.pathLower;
  const prefixEnd = prefixSuccessor(prefix) ?? `${prefix}${'\u{10ffff}'.repeat(4096)}`;
  return { name: query.nameLower, prefix, prefixEnd, limit: query.limit, trigrams: JSON.stringify([...new Set(query.trigrams)]), tokens: JSON.stringify([...new Set(query.tokens)]) };
}

export type SuggestStatements = ReturnType<typeof build>;
export const prepareSuggestStatements: (db: Database) => SuggestStatements = build;

/**
 * Exact suggestion scoring (see SqliteIndexStore.suggestCandidates) that stays fast when
 * some query terms are in most files of a large ref ("src", "ts"). Clauses with more than
 * `frequent` files are "big". When the rare clauses together have no more postings than
 * one big clause, candidates come from them only and get the big clauses' points by
 * primary-key lookups: a file matching no rare clause scores at most the big clauses'
 * total weight, so when the k-th candidate scores strictly more, the answer is exact.
 * Otherwise the full sum runs: with more rare postings than that, the pruned pass costs
 * as much as the full sum (a lookup per candidate per big clause) and often has to fall
 * back to it after all, which doubled the slowest queries on large refs.
 */
export function suggest(st: SuggestStatements, s: number, g: number, query: SuggestQuery, frequent: number): SuggestCandidate[] {
  const trigrams = [...new Set(query.trigrams)];
  const tokens = [...new Set(query.tokens)];
  const name = query.nameLower;
  const prefix = query.pathLower;
  // A prefix made only of U+10FFFF has no successor: any bound past every real path will do.
  const prefixEnd = prefixSuccessor(prefix) ?? `${prefix}${'\u{10ffff}'.repeat(4096)}`;
  const base = { s, g, name, prefix, prefixEnd, limit: query.limit };

  let rarePostings = 0;
  const isBig = (count: number) => {
    if (count > frequent) return true;
    rarePostings += count;
    return false;
  };
  const bigTrigrams = trigrams.filter((term) => isBig(st.termDocs.get({ s, kind: TRIGRAM, term, cap: frequent }) as number));
  const bigTokens = tokens.filter((term) => isBig(st.termDocs.get({ s, kind: TOKEN, term, cap: frequent }) as number));
  const nameBig = name !== '' && isBig(st.nameDocs.get({ s, name, cap: frequent }) as number);
  const prefixBig = prefix !== '' && isBig(st.prefixDocs.get({ s, prefix, prefixEnd, cap: frequent }) as number);
  const bigWeight = bigTrigrams.length * W.trigram + W.token * bigTokens.length + (nameBig ? W.sameName : 0) + (prefixBig ? W.pathPrefix : 0);

  const full = () => fullSum(st, { ...base, trigrams: JSON.stringify(trigrams), tokens: JSON.stringify(tokens) }, query.limit);
  if (bigWeight === 0 || rarePostings > frequent) return full();

  const big = { trigrams: new Set(bigTrigrams), tokens: new Set(bigTokens) };
  const rareTrigrams = trigrams.filter((term) => !big.trigrams.has(term));
  const rareTokens = tokens.filter((term) => !big.tokens.has(term));
  const nameRare = name !== '' && !nameBig;
  const prefixRare = prefix !== '' && !prefixBig;
  if (rareTrigrams.length + rareTokens.length === 0 && !nameRare && !prefixRare) return full();

  const candidates = st.pruned.all({
    ...base,
    rareTrigrams: JSON.stringify(rareTrigrams),
    rareTokens: JSON.stringify(rareTokens),
    bigTrigrams: JSON.stringify(bigTrigrams),
    bigTokens: JSON.stringify(bigTokens),
    nameRare: nameRare ? 1 : 0,
    prefixRare: prefixRare ? 1 : 0,
  });
  const kth = candidates[query.limit - 1];
  return candidates.length === query.limit && kth !== undefined && kth.score > bigWeight ? candidates : full();
}

/** The full sum, cut before the join; without the cut when versions that are not visible filled the top k. */
function fullSum(st: SuggestStatements, args: Record<string, unknown>, limit: number): SuggestCandidate[] {
  const cut = st.full.all(args);
  const first = cut[0];
  if (cut.length === limit || (first !== undefined && first.cut === 0)) return cut.map(({ path, blobSha, score }) => ({ path, blobSha, score }));
  return st.fullUncut.all(args);
}
