import type { SuggestPathsInput, SuggestPathsOutput, Suggestion } from '@gitdex/contracts';
import { locate } from '../address/locate';
import type { Principal, ReaderDeps } from '../deps';
import { shortRef, shortSha } from '../freshness';
import { resultChars } from '../format/text';
import { suggestQuery } from '../suggest/candidates';
import { rankPaths } from '../suggest/rank';
import { invalid } from '../tool-error';
import { pendingLine, type ToolAnswer } from './answer';

const DEFAULT_LIMIT = 10;

/**
 * suggest_paths: the files a caller most likely means by a misspelt, partial, misplaced
 * or restyled path, best first. The index finds candidates; rank.ts orders them. A query
 * that names a file that was moved puts where it went first.
 */
export async function suggestPaths(deps: ReaderDeps, principal: Principal | null, input: SuggestPathsInput): Promise<ToolAnswer<SuggestPathsOutput>> {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const { repository, target, path: query } = await locate(deps, principal, { repository: input.repository, path: input.query, ref: input.ref }, 'query');
  if (query === '') throw invalid('query: give a path, a part of one, or a file name, e.g. "src/serv"');
  const { snapshot } = target;
  // A query that looks like a whole file name may be a path that moved: look that up alongside.
  const looksComplete = /\.[A-Za-z0-9]+$/.test(query);
  const [candidates, retired] = await Promise.all([deps.index.suggestCandidates(snapshot, suggestQuery(query)), looksComplete ? deps.index.findRetired(snapshot, query) : Promise.resolve(null)]);
  const ranked = rankPaths(
    query,
    candidates.map((c) => c.path),
    limit,
  );
  let suggestions: Suggestion[] = ranked.map((r) => ({ path: r.path, score: r.score, reason: r.reason }));
  if (retired && !(suggestions[0]?.reason === 'exact')) {
    const movedTo = await deps.index.findByBlobSha(snapshot, retired.blobSha, 1);
    const to = movedTo[0];
    if (to !== undefined) suggestions = [{ path: to, score: 1, reason: 'moved' }, ...suggestions.filter((s) => s.path !== to)].slice(0, limit);
  }
  const build = (shown: Suggestion[]): ToolAnswer<SuggestPathsOutput> => {
    const structured: SuggestPathsOutput = { repository: repository.fullName, ref: target.state.ref, query, suggestions: shown, freshness: target.freshness };
    const head = `${repository.fullName} at ${shortRef(target.state.ref)} (${shortSha(target.state.commitSha)}): ${shown.length === 0 ? 'no path looks like' : 'paths like'} "${query}"${pendingLine(target.freshness)}`;
    const body = shown.map((s, i) => `${i + 1}. ${s.path}  (${s.reason}, ${s.score})`).join('\n');
    return { structured, text: shown.length === 0 ? `${head}\nTry fewer characters, a file name only, or list_files to browse.` : `${head}\n${body}` };
  };
  let result = build(suggestions);
  while (suggestions.length > 1 && resultChars(result.text, result.structured) > deps.limits.maxResultChars) {
    suggestions = suggestions.slice(0, Math.ceil(suggestions.length / 2));
    result = build(suggestions);
  }
  return result;
}
