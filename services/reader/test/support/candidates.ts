import { nameOf, pathTokens, trigramsOf } from '@gitdex/contracts';

/**
 * Candidate generation as an index engine does it for suggestCandidates: paths sharing
 * name trigrams or path tokens with the query, or starting with it; best overlaps first.
 * Mirrors MemoryIndexStore.suggestCandidates for benchmarks that skip the store.
 */
export function candidatesFor(paths: string[], query: string, limit: number): string[] {
  const q = query.replace(/^\/+/, '');
  const trigrams = new Set(trigramsOf(nameOf(q)));
  const tokens = new Set(pathTokens(q));
  const pathLower = q.toLowerCase();
  const nameLower = nameOf(q).toLowerCase();
  const scored: { path: string; score: number }[] = [];
  for (const path of paths) {
    let score = 0;
    for (const gram of trigramsOf(nameOf(path))) if (trigrams.has(gram)) score += 1;
    for (const token of pathTokens(path)) if (tokens.has(token)) score += 2;
    const lower = path.toLowerCase();
    if (pathLower && lower.startsWith(pathLower)) score += 20;
    const name = nameOf(lower);
    if (nameLower && name.startsWith(nameLower)) score += 10;
    if (name === nameLower) score += 10;
    if (score > 0) scored.push({ path, score });
  }
  return scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, limit).map((s) => s.path);
}
