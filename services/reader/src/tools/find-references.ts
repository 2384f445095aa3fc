import type { FindReferencesInput, FindReferencesOutput, ReferenceFile } from '@gitdex/contracts';
import type { IdentifierFile } from '@gitdex/ports';
import type { Principal, ReaderDeps } from '../deps';
import { shortRef, shortSha } from '../freshness';
import { formatCount } from '../format/text';
import { blobUrl } from '../github-links';
import { tierOf } from '../search/rank';
import { symbolPaging } from '../symbols/cursor';
import { pathScope } from '../symbols/path-scope';
import { compare, rankHits } from '../symbols/rank';
import { distinctLines, referenceLines } from '../symbols/reference-lines';
import type { ReferenceBounds } from '../symbols/reference-parsing';
import { scanReferences, type ReferenceCut, type ReferenceScan } from '../symbols/reference-scan';
import { searchedOf, symbolTargets, type SymbolTarget } from '../symbols/searched';
import { invalid } from '../tool-error';
import type { ToolAnswer } from './answer';
import { symbolLine, symbolResult } from './find-symbol';

const DEFAULT_LIMIT = 20;
/** Lines shown a file; match_count counts them all. */
const LINES_A_FILE = 20;
/** Definitions the name resolves to that an answer lists. */
const DEFINITIONS = 10;
/**
 * Definitions read to rank those few: the index's cost grows with how many it returns, and a
 * name defined more often than this is better narrowed than ranked (find_symbol ranks more).
 */
const DEFINITION_CANDIDATES = 200;
/** What the text block and structured content cost besides the files. */
const OVERHEAD_CHARS = 6_000;

const IDENTIFIER = /^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*$/u;

/**
 * find_references: where an identifier occurs in code, by file. The files that hold the name's
 * text are parsed when asked (tree-sitter, within bounds; symbols/reference-scan.ts): the index
 * stores definitions only.
 */
export async function findReferences(deps: ReaderDeps, principal: Principal | null, input: FindReferencesInput): Promise<ToolAnswer<FindReferencesOutput>> {
  const name = input.name.trim();
  if (!IDENTIFIER.test(name)) throw invalid(`name: "${name}" is not one identifier; give a name such as "flipGeneration" (find_symbol takes "Container.name" and * patterns)`);
  const scope = pathScope(input.path);
  const targets = await symbolTargets(deps, principal, input);
  const paging = symbolPaging('references', [name, input.repository ?? null, input.repositories ?? null, input.ref ?? null, input.path ?? null, input.language ?? null], input.cursor, targets);
  const limit = input.limit ?? DEFAULT_LIMIT;
  const snapshots = targets.map((t) => t.snapshot);
  const filter = {
    ...(input.language !== undefined ? { language: input.language } : {}),
    ...(scope.prefix !== undefined ? { pathPrefix: scope.prefix } : {}),
  };

  const scan: ReferenceScan =
    targets.length === 0
      ? { files: [], cut: null, unparsed: 0 }
      : await scanReferences(deps, targets, {
          name,
          ...(input.language !== undefined ? { language: input.language } : {}),
          ...(scope.prefix !== undefined ? { prefix: scope.prefix } : {}),
          matches: scope.matches,
        });
  const ranked = rankFiles(scan.files, targets);

  const definitionHits = targets.length === 0 ? [] : await deps.index.findSymbols(snapshots, { match: 'exact', name, ...filter, limit: DEFINITION_CANDIDATES });
  const definitions = rankHits(
    definitionHits.filter((h) => !scope.matches || scope.matches(h.path)).map((h) => ({ ...h, repository: (targets[h.snapshotIndex] as SymbolTarget).repository })),
    name,
  )
    .slice(0, DEFINITIONS)
    .map((h) => symbolResult(deps, targets[h.snapshotIndex] as SymbolTarget, h));

  const page = await render(deps, targets, ranked.slice(paging.offset, paging.offset + limit));
  const shownEnd = paging.offset + page.length;
  const structured: FindReferencesOutput = {
    name,
    definitions,
    files: page,
    total_files: ranked.length,
    total_occurrences: ranked.reduce((sum, f) => sum + f.occurrences.length, 0),
    offset: paging.offset,
    next_cursor: shownEnd < ranked.length ? paging.next(shownEnd) : null,
    complete: scan.cut === null,
    repositories: searchedOf(targets),
  };
  return { structured, text: textOf(structured, targets, scan, deps.referenceBounds) };
}

/** Best first: files that define the name, source before tests before vendored/generated, more occurrences, fewer folders, then path. */
function rankFiles(files: IdentifierFile[], targets: SymbolTarget[]): IdentifierFile[] {
  const keyed = files.map((f) => ({
    f,
    defines: f.definitions.length > 0 || f.occurrences.some((o) => o.role === 'definition') ? 0 : 1,
    tier: tierOf(f.path, f.flags),
    count: f.occurrences.length,
    depth: f.path.split('/').length,
    repository: (targets[f.snapshotIndex] as SymbolTarget).repository,
  }));
  keyed.sort((a, b) => a.defines - b.defines || a.tier - b.tier || b.count - a.count || a.depth - b.depth || compare(a.repository, b.repository) || compare(a.f.path, b.f.path));
  return keyed.map((k) => k.f);
}

async function render(deps: ReaderDeps, targets: SymbolTarget[], page: IdentifierFile[]): Promise<ReferenceFile[]> {
  const contents = new Map<string, string>();
  const bySnapshot = new Map<number, string[]>();
  for (const f of page) bySnapshot.set(f.snapshotIndex, [...(bySnapshot.get(f.snapshotIndex) ?? []), f.path]);
  for (const [index, paths] of bySnapshot) {
    for (const { path, content } of await deps.index.readContents((targets[index] as SymbolTarget).snapshot, paths)) contents.set(`${index}\u0000${path}`, content ?? '');
  }
  const budget = deps.limits.maxResultChars - OVERHEAD_CHARS;
  const out: ReferenceFile[] = [];
  let used = 0;
  for (const f of page) {
    const target = targets[f.snapshotIndex] as SymbolTarget;
    const content = contents.get(`${f.snapshotIndex}\u0000${f.path}`) ?? '';
    let keep = LINES_A_FILE;
    let file = referenceFile(deps, target, f, content, keep);
    let cost = JSON.stringify(file).length * 2;
    while (out.length === 0 && cost > budget && keep > 1) {
      keep = Math.floor(keep / 2);
      file = referenceFile(deps, target, f, content, keep);
      cost = JSON.stringify(file).length * 2;
    }
    if (out.length > 0 && used + cost > budget) break;
    out.push(file);
    used += cost;
  }
  return out;
}

function referenceFile(deps: ReaderDeps, target: SymbolTarget, f: IdentifierFile, content: string, keep: number): ReferenceFile {
  return {
    repository: target.repository,
    path: f.path,
    ref: target.snapshot.ref,
    commit: f.commitSha,
    language: f.language,
    url: blobUrl(deps.githubWebUrl, target.repository, f.commitSha, f.path),
    match_count: distinctLines(f.occurrences),
    matches: referenceLines(content, f.occurrences, keep),
  };
}

function cutBy(cut: ReferenceCut, bounds: ReferenceBounds): string {
  switch (cut) {
    case 'files':
      return `parsing ${formatCount(bounds.files, 'file')}`;
    case 'bytes':
      return `parsing ${(bounds.bytes / 1024 / 1024).toFixed(1)} MiB of files`;
    case 'time':
      return `${(bounds.ms / 1000).toFixed(1)} seconds`;
    case 'candidates':
      return `listing ${formatCount(bounds.candidates, 'file')} that hold the text`;
  }
}

function textOf(out: FindReferencesOutput, targets: SymbolTarget[], scan: ReferenceScan, bounds: ReferenceBounds): string {
  const capped = scan.cut !== null;
  const one = targets.length > 0 && targets.every((t) => t.repository === targets[0]?.repository);
  const where = one
    ? `${targets[0]?.repository} at ${targets.map((t) => `${shortRef(t.snapshot.ref)} (${shortSha(t.commit)})`).join(', ')}`
    : formatCount(targets.length, 'repository', 'repositories');
  const lines = [
    `find_references ${JSON.stringify(out.name)} in ${where}: ${formatCount(out.total_occurrences, 'occurrence')} in ${formatCount(out.total_files, 'file')}${capped ? ' at least' : ''} (search-based: identifiers named so, not resolved by a compiler)`,
  ];
  if (scan.cut !== null)
    lines.push(`Note: incomplete: the search stopped after ${cutBy(scan.cut, bounds)}; these rank the files found before, in path order. Narrow it with repository, path or language.`);
  if (scan.unparsed > 0) lines.push(`Note: ${formatCount(scan.unparsed, 'file')} holding the name could not be parsed (too large or too slow) and are left out; search_code finds their text.`);
  const pending = targets.filter((t) => t.freshness.pending);
  if (pending.length > 0) lines.push(`Note: newer pushes are being indexed for ${pending.map((t) => t.repository).join(', ')}; this searched the commits shown.`);
  if (out.definitions.length > 0) lines.push('Definitions:', ...out.definitions.map((d) => `  ${symbolLine(d)}`));
  if (out.files.length === 0) lines.push(out.total_files === 0 ? 'No occurrences in code (comments and strings are not searched: search_code finds any text).' : 'No more files on this page.');
  for (const file of out.files) {
    lines.push('', `${file.repository} ${file.path} (${formatCount(file.match_count, 'line')}) ${file.url}`);
    for (const m of file.matches) lines.push(`${file.path}:${m.line}: [${[...new Set(m.roles)].join(',')}] ${m.text}`);
    if (file.match_count > file.matches.length) lines.push(`[${formatCount(file.match_count - file.matches.length, 'more line')} in this file]`);
  }
  if (out.next_cursor) lines.push('', `[${formatCount(out.total_files - out.offset - out.files.length, 'more file')}: pass cursor "${out.next_cursor}" for the next page]`);
  return lines.join('\n');
}
