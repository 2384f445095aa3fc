import { nameOf, pathTokens, trigramsOf } from '@gitdex/terms';
import { CANDIDATE_WEIGHTS as W } from '@gitdex/ports';
import { suggestQuery } from '../../src/suggest/candidates';

interface Indexed {
  path: string;
  pathLower: string;
  nameLower: string;
  trigrams: Set<string>;
  tokens: Set<string>;
}

/**
 * Candidate generation as the engines do it for suggestCandidates (the clauses and weights
 * of CANDIDATE_WEIGHTS, on the query the reader builds): so a benchmark that skips the
 * store ranks the same candidates the product would. The terms of a tree are built once.
 */
export function candidateFinder(paths: string[]): (query: string, limit: number) => string[] {
  const indexed: Indexed[] = paths.map((path) => ({
    path,
    pathLower: path.toLowerCase(),
    nameLower: nameOf(path).toLowerCase(),
    trigrams: new Set(trigramsOf(nameOf(path))),
    tokens: new Set(pathTokens(path)),
  }));
  return (query, limit) => {
    const q = suggestQuery(query);
    const trigrams = [...new Set(q.trigrams)];
    const tokens = [...new Set(q.tokens)];
    const scored: { path: string; score: number }[] = [];
    for (const doc of indexed) {
      let score = 0;
      for (const gram of trigrams) if (doc.trigrams.has(gram)) score += W.trigram;
      for (const token of tokens) if (doc.tokens.has(token)) score += W.token;
      if (q.nameLower !== '' && doc.nameLower === q.nameLower) score += W.sameName;
      if (q.pathLower !== '' && doc.pathLower.startsWith(q.pathLower)) score += W.pathPrefix;
      if (score > 0) scored.push({ path: doc.path, score });
    }
    return scored
      .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1))
      .slice(0, limit)
      .map((s) => s.path);
  };
}

/** One-off form of candidateFinder. */
export function candidatesFor(paths: string[], query: string, limit: number): string[] {
  return candidateFinder(paths)(query, limit);
}
