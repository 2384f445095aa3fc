import type { BlobSymbols } from '@gitdex/contracts';
import type { ContentCandidate, ContentPlan, IdentifierFile } from '@gitdex/ports';
import { foldText } from '@gitdex/terms';
import type { ReaderDeps } from '../deps';
import type { PathMatcher } from '../search/globs';
import type { ParsedReferences, ReferenceBounds } from './reference-parsing';
import type { SymbolTarget } from './searched';

/** What stopped a scan before every candidate was looked at. */
export type ReferenceCut = 'files' | 'bytes' | 'time' | 'candidates';

export interface ReferenceScan {
  /** Files with at least one occurrence, in (snapshot, path) order. */
  files: IdentifierFile[];
  /** Null when every candidate was looked at. */
  cut: ReferenceCut | null;
  /** Files that hold the word but could not be parsed (too large, timeout): not searched. */
  unparsed: number;
}

export interface ReferenceQuery {
  name: string;
  language?: string;
  /** Only paths starting with this. */
  prefix?: string;
  matches: PathMatcher | null;
}

/** Candidates listed from the content index a request. */
const PAGE = 500;
/** Contents read from the index a request (and parsed together). */
const CONTENT_BATCH = 50;

const NONE: ParsedReferences = { occurrences: [], definitions: [] };

/** A file the parser skipped or failed: not kept, since a timeout on a busy host may pass later. */
class Unparsed extends Error {}

/**
 * The name as a whole word: not inside a longer run of letters, digits and `_`. A superset of the
 * files where it is an identifier, which is all the test must be: `$` does not join, since PHP's
 * `$name` holds the identifier `name`, and a JavaScript `$name` is told apart by the parser.
 */
function wordPattern(name: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${name.replace(/\$/g, '\\$')}(?![\\p{L}\\p{N}_])`, 'u');
}

/**
 * Where `name` occurs as an identifier in code, found when asked: the content index names the
 * files that hold its text (search_code's trigrams), a word test drops those that hold it only
 * inside longer words, and the parser finds the identifier nodes in the rest (never comments or
 * strings). Within the bounds; the cut says which one stopped it. A blob's answer for a name is
 * kept (deps.referenceCache): a blob never changes, so nothing kept goes stale.
 */
export async function scanReferences(deps: ReaderDeps, targets: SymbolTarget[], query: ReferenceQuery, bounds: ReferenceBounds = deps.referenceBounds): Promise<ReferenceScan> {
  const { name } = query;
  const plan: ContentPlan = name.length >= 3 ? { op: 'substring', text: foldText(name), cased: name } : { op: 'all' };
  const word = wordPattern(name);
  const languages = new Set(deps.references.languages);
  const started = deps.now().getTime();
  const files: IdentifierFile[] = [];
  let parsedFiles = 0;
  let parsedBytes = 0;
  let listed = 0;
  let unparsed = 0;
  const keyOf = (c: ContentCandidate) => `${c.blobSha}\u0000${c.language ?? ''}\u0000${name}`;
  const inScope = (c: ContentCandidate) =>
    c.language !== null && languages.has(c.language) && (query.prefix === undefined || c.path.startsWith(query.prefix)) && (!query.matches || query.matches(c.path));

  for (const [snapshotIndex, target] of targets.entries()) {
    let afterPath: string | null = null;
    for (;;) {
      if (listed >= bounds.candidates) return { files, cut: 'candidates', unparsed };
      const page = await deps.index.searchCandidates(target.snapshot, plan, { ...(query.language !== undefined ? { language: query.language } : {}), includeGenerated: true, afterPath, limit: PAGE });
      listed += page.length;
      const wanted = page.filter(inScope);
      for (let i = 0; i < wanted.length; i += CONTENT_BATCH) {
        if (deps.now().getTime() - started > bounds.ms) return { files, cut: 'time', unparsed };
        const batch = wanted.slice(i, i + CONTENT_BATCH);
        const unread = batch.filter((c) => deps.referenceCache.peek(keyOf(c)) === undefined);
        const contents = new Map<string, string>();
        if (unread.length > 0) {
          for (const { path, content } of await deps.index.readContents(
            target.snapshot,
            unread.map((c) => c.path),
          ))
            if (typeof content === 'string') contents.set(path, content);
        }
        let cut: ReferenceCut | null = null;
        const answers = batch.map((c) => {
          const kept = deps.referenceCache.peek(keyOf(c));
          if (kept) return kept;
          const content = contents.get(c.path);
          // A path gone since it was listed (a flip in between) says nothing of its blob: not kept.
          if (content === undefined) return Promise.resolve(NONE);
          if (!word.test(content)) return deps.referenceCache.get(keyOf(c), () => Promise.resolve(NONE));
          if (cut !== null || parsedFiles + 1 > bounds.files || parsedBytes + c.size > bounds.bytes) {
            cut ??= parsedFiles + 1 > bounds.files ? 'files' : 'bytes';
            return null;
          }
          parsedFiles += 1;
          parsedBytes += c.size;
          return deps.referenceCache.get(keyOf(c), () => deps.references.occurrences(content, c.path, c.language, name).then((symbols) => parsedOf(symbols, name)));
        });
        // Awaited together, so a failure of one never leaves the others' rejections unobserved.
        const results = await Promise.all(
          answers.map((answer) =>
            answer === null
              ? Promise.resolve(undefined)
              : answer.catch((error: unknown) => {
                  if (error instanceof Unparsed) return null;
                  throw error;
                }),
          ),
        );
        for (const [j, found] of results.entries()) {
          const candidate = batch[j] as ContentCandidate;
          if (found === undefined) continue;
          if (found === null) unparsed += 1;
          if (found === null || found.occurrences.length === 0) continue;
          files.push({
            snapshotIndex,
            path: candidate.path,
            blobSha: candidate.blobSha,
            commitSha: target.commit,
            language: candidate.language,
            flags: candidate.flags,
            occurrences: found.occurrences,
            definitions: found.definitions,
          });
        }
        if (cut !== null) return { files, cut, unparsed };
      }
      const last = page[page.length - 1];
      if (page.length < PAGE || !last) break;
      // Paths come in order: past the prefix's folder, nothing more is in scope.
      if (query.prefix !== undefined && last.path > query.prefix && !last.path.startsWith(query.prefix)) break;
      afterPath = last.path;
    }
  }
  return { files, cut: null, unparsed };
}

function parsedOf(symbols: BlobSymbols, name: string): ParsedReferences {
  if (symbols.status !== 'parsed') throw new Unparsed(symbols.reason ?? symbols.status);
  return { occurrences: symbols.occurrences.filter((o) => o.name === name), definitions: symbols.definitions.filter((d) => d.name === name) };
}
