import type { FindSymbolInput, FindSymbolOutput, SymbolResult } from '@gitdex/contracts';
import { RANKED_SYMBOL_FILES, type SymbolHit } from '@gitdex/ports';
import type { Principal, ReaderDeps } from '../deps';
import { shortRef, shortSha } from '../freshness';
import { formatCount, resultChars } from '../format/text';
import { blobUrl } from '../github-links';
import { closestNames, DID_YOU_MEAN } from '../symbols/did-you-mean';
import { bareName, parseSymbolName } from '../symbols/name-query';
import { pathScope } from '../symbols/path-scope';
import { symbolPaging } from '../symbols/cursor';
import { rankHits } from '../symbols/rank';
import { searchedOf, symbolTargets, type SymbolTarget } from '../symbols/searched';
import type { ToolAnswer } from './answer';

const DEFAULT_LIMIT = 20;
/**
 * Definitions read from the index to rank when the index cannot rank them itself (a `*`
 * pattern, path globs). A pattern matching more than this (over a large monorepo) is ranked
 * among the first this many in path order, and says so.
 */
export const MAX_RANKED = 2_000;
/**
 * Names the index offers for "did you mean": the ones shown. Both indexes rank with nearNames as
 * closestNames does, so their first names are the answer, and an index that is sure of them early
 * stops there (Elasticsearch skips its scan for names containing the asked one).
 */
const NAME_CANDIDATES = DID_YOU_MEAN;

/** find_symbol: definitions by name, container-qualified name or pattern, across the refs a caller may read. */
export async function findSymbol(deps: ReaderDeps, principal: Principal | null, input: FindSymbolInput): Promise<ToolAnswer<FindSymbolOutput>> {
  const query = parseSymbolName(input.name);
  const scope = pathScope(input.path);
  const targets = await symbolTargets(deps, principal, input);
  const paging = symbolPaging(
    'symbols',
    [input.name, input.kind ?? null, input.repository ?? null, input.repositories ?? null, input.ref ?? null, input.path ?? null, input.language ?? null],
    input.cursor,
    targets,
  );
  const limit = input.limit ?? DEFAULT_LIMIT;
  const snapshots = targets.map((t) => t.snapshot);

  const filters = {
    ...(input.kind !== undefined ? { kind: input.kind } : {}),
    ...(input.language !== undefined ? { language: input.language } : {}),
    ...(scope.prefix !== undefined ? { pathPrefix: scope.prefix } : {}),
  };
  const wanted = bareName(query);
  const withRepository = (hits: SymbolHit[]) => hits.map((h) => ({ ...h, repository: (targets[h.snapshotIndex] as SymbolTarget).repository }));
  let shown: (SymbolHit & { repository: string })[] = [];
  let total = 0;
  let capped = false;
  if (targets.length > 0 && query.match === 'exact' && scope.matches === null && paging.offset + limit <= RANKED_SYMBOL_FILES) {
    // The index reads the files holding the page's definitions (and counts the rest), not every definition of the name.
    const page = await deps.index.rankedSymbols(snapshots, { ...query, ...filters, files: paging.offset + limit });
    shown = rankHits(withRepository(page.hits), wanted).slice(paging.offset, paging.offset + limit);
    total = page.total;
  } else if (targets.length > 0) {
    // A pattern, path globs, or a page past what the index ranks: every definition is read and ranked here.
    let hits = await deps.index.findSymbols(snapshots, { ...query, ...filters, limit: MAX_RANKED + 1 });
    capped = hits.length > MAX_RANKED;
    if (capped) hits = hits.slice(0, MAX_RANKED);
    if (scope.matches) hits = hits.filter((h) => scope.matches?.(h.path));
    const ranked = rankHits(withRepository(hits), wanted);
    shown = ranked.slice(paging.offset, paging.offset + limit);
    total = ranked.length;
  }
  const didYouMean = total === 0 && targets.length > 0 ? closestNames(wanted, await deps.index.symbolNamesLike(snapshots, wanted, NAME_CANDIDATES)) : [];
  const answer = (count: number): ToolAnswer<FindSymbolOutput> => {
    const symbols = shown.slice(0, count).map((h) => symbolResult(deps, targets[h.snapshotIndex] as SymbolTarget, h));
    const shownEnd = paging.offset + symbols.length;
    const structured: FindSymbolOutput = {
      name: input.name,
      symbols,
      total,
      offset: paging.offset,
      next_cursor: shownEnd < total ? paging.next(shownEnd) : null,
      did_you_mean: didYouMean,
      repositories: searchedOf(targets),
    };
    return { structured, text: textOf(structured, targets, capped) };
  };
  // Long signatures and many repositories can outgrow an answer: fewer results a page, never none.
  let count = limit;
  let result = answer(count);
  while (count > 1 && resultChars(result.text, result.structured) > deps.limits.maxResultChars) {
    count = Math.ceil(count / 2);
    result = answer(count);
  }
  return result;
}

export function symbolResult(deps: ReaderDeps, target: SymbolTarget, hit: Omit<SymbolHit, 'snapshotIndex'>): SymbolResult {
  const d = hit.definition;
  return {
    repository: target.repository,
    ref: target.snapshot.ref,
    commit: hit.commitSha,
    path: hit.path,
    name: d.name,
    kind: d.kind,
    container: d.container,
    line: d.line,
    end_line: d.endLine,
    signature: d.signature,
    language: hit.language,
    url: blobUrl(deps.githubWebUrl, target.repository, hit.commitSha, hit.path, { start: d.line, end: d.endLine }),
  };
}

export function symbolLine(s: SymbolResult): string {
  const qualified = s.container ? `${s.container}.${s.name}` : s.name;
  return `${s.kind} ${qualified}  ${s.repository} ${s.path}:${s.line}-${s.end_line}  ${s.signature}`;
}

function where(targets: SymbolTarget[]): string {
  const one = targets.length > 0 && targets.every((t) => t.repository === targets[0]?.repository);
  return one ? `${targets[0]?.repository} at ${targets.map((t) => `${shortRef(t.snapshot.ref)} (${shortSha(t.commit)})`).join(', ')}` : formatCount(targets.length, 'repository', 'repositories');
}

function textOf(out: FindSymbolOutput, targets: SymbolTarget[], capped: boolean): string {
  const lines = [`find_symbol ${JSON.stringify(out.name)} in ${where(targets)}: ${formatCount(out.total, 'definition')}${capped ? ' at least' : ''}`];
  if (capped) lines.push(`Note: more than ${MAX_RANKED.toLocaleString('en-US')} definitions match; these rank the first ones in path order. Narrow it with repository, path, language or kind.`);
  const pending = targets.filter((t) => t.freshness.pending);
  if (pending.length > 0) lines.push(`Note: newer pushes are being indexed for ${pending.map((t) => t.repository).join(', ')}; this searched the commits shown.`);
  if (out.symbols.length === 0) {
    lines.push(out.total > 0 ? 'No more definitions on this page.' : 'No definition found.');
    if (out.did_you_mean.length > 0) lines.push(`Did you mean: ${out.did_you_mean.join(', ')}?`);
    else if (out.total === 0) lines.push('Symbols come from tree-sitter definitions; search_code finds any text.');
  } else {
    lines.push(...out.symbols.map((s) => `${symbolLine(s)}\n  ${s.url}`));
  }
  if (out.next_cursor) lines.push('', `[${formatCount(out.total - out.offset - out.symbols.length, 'more definition')}: pass cursor "${out.next_cursor}" for the next page]`);
  return lines.join('\n');
}
