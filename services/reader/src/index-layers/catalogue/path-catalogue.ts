import { compareCodePoints, depthOf, nameOf, pathTokens, trigramsOf } from '@gitdex/terms';
import { CANDIDATE_WEIGHTS as W, deepestListed, MAX_FOLDERS, type FileSummary, type FolderCount, type FolderScope, type SuggestCandidate, type SuggestQuery, type VisibleEntry } from '@gitdex/ports';

interface OpenFolder {
  path: string;
  /** Where its files start among the catalogue's. */
  from: number;
  /** The tokens of its own name. */
  tokens: string[];
}

/**
 * The files of one snapshot with the terms `IndexReads.suggestCandidates` matches and the
 * folders `listFolders` counts, so that the reader can answer those and `listFiles` from
 * memory: the port's clauses and weights (CANDIDATE_WEIGHTS), the same orders (score, then path
 * in code point order; path order for listings), the port's listing rules (MAX_FOLDERS,
 * deepestListed), so the same answers as the
 * index without its round trip. Built once per snapshot, file by file in path order (the order
 * the index lists them in, which is also the tie order), then read-only. Suggestions and folder
 * listings need only each file's path and blob; file listings need its summary, which the
 * index gives ten times slower (it is cut out of a source that holds the file's content), so
 * the summaries come after the catalogue is sealed and file listings are answered once all of
 * them are in (`listsFiles`).
 */
export class PathCatalogue {
  private readonly blobShas: string[] = [];
  private readonly summaries: FileSummary[] = [];
  private readonly paths: string[] = [];
  /** Each file's depth while the catalogue is built (fileDepths once sealed). */
  private readonly depths: number[] = [];
  private readonly pathLowers: string[] = [];
  /** Files by term, growing while the catalogue is built, packed into typed arrays when it is sealed. */
  private byName: Postings = new Map();
  private byTrigram: Postings = new Map();
  private byToken: Postings = new Map();
  /** Files by lower-cased path, for the prefix clause; sorted when the catalogue is sealed. */
  private byPathLower: number[] = [];
  /** Every folder (the root left out) in code point order, with its depth and the files under it. */
  private folders: string[] = [];
  private folderDepths = new Int32Array(0);
  private fileDepths = new Int32Array(0);
  private readonly filesUnder = new Map<string, number>();
  /**
   * The folders above the last file added, root-most first, with where their files start and
   * the tokens of their own name: files come in path order, so a folder's files are one run,
   * and each folder is cut out of a path and split into tokens once, not once per file under it.
   */
  private readonly open: OpenFolder[] = [];
  private deepestFile = 0;
  private sealed = false;
  /** Scores of the query being answered, one per file; reset after each query. */
  private scores = new Int32Array(0);
  /** The paths with a retired version (those findRetired answers for); null: not known. */
  private retired: Set<string> | null = null;

  get size(): number {
    return this.paths.length;
  }

  /** Adds files that come after every file added so far in code point order (as the index lists them). */
  add(files: readonly Pick<VisibleEntry, 'path' | 'blobSha'>[]): void {
    if (this.sealed) throw new Error('PathCatalogue: sealed catalogues take no more files');
    const open = this.open;
    for (const { path, blobSha } of files) {
      const at = this.paths.length;
      this.blobShas.push(blobSha);
      this.paths.push(path);
      // The folders still open that are above this file stay; the others end before it.
      let slash = path.indexOf('/');
      let level = 0;
      for (; level < open.length; level += 1) {
        const folder = (open[level] as OpenFolder).path;
        if (slash !== folder.length || !path.startsWith(folder)) break;
        slash = path.indexOf('/', slash + 1);
      }
      this.closeFolders(level, at);
      for (; slash >= 0; slash = path.indexOf('/', slash + 1)) {
        open.push({ path: path.slice(0, slash), from: at, tokens: pathTokens(path.slice(path.lastIndexOf('/', slash - 1) + 1, slash)) });
      }
      // A path's tokens are those of its folders' names and its own: none spans a slash.
      for (const folder of open) for (const token of folder.tokens) post(this.byToken, token, at);
      const name = nameOf(path);
      for (const token of pathTokens(name)) post(this.byToken, token, at);
      const depth = open.length + 1;
      this.depths.push(depth);
      this.deepestFile = Math.max(this.deepestFile, depth);
      this.pathLowers.push(path.toLowerCase());
      post(this.byName, name.toLowerCase(), at);
      for (const gram of trigramsOf(name)) post(this.byTrigram, gram, at);
    }
  }

  /** Ends the open folders from `level` down, before the file at `end`: their files are counted. */
  private closeFolders(level: number, end: number): void {
    while (this.open.length > level) {
      const folder = this.open.pop() as OpenFolder;
      this.filesUnder.set(folder.path, end - folder.from);
    }
  }

  /**
   * Adds the summaries of the next files, in path order. False (and nothing kept) when they are
   * not of those files: the index moved on since the paths were read, and file listings stay
   * with the index.
   */
  addSummaries(files: readonly FileSummary[]): boolean {
    const from = this.summaries.length;
    const fits = files.every((file, i) => file.path === this.paths[from + i] && file.blobSha === this.blobShas[from + i]);
    if (fits) this.summaries.push(...files);
    return fits;
  }

  /** Whether every file's summary is in, so that listFiles may be asked. */
  get listsFiles(): boolean {
    return this.sealed && this.summaries.length === this.paths.length;
  }

  /** How many files' summaries are in. */
  get summarised(): number {
    return this.summaries.length;
  }

  /** The paths findRetired answers for at this snapshot, when all of them are known. */
  knowRetired(paths: Iterable<string>): void {
    this.retired = new Set(paths);
  }

  /** False only when findRetired is known to answer nothing for `path`. */
  mayBeRetired(path: string): boolean {
    return this.retired === null || this.retired.has(path);
  }

  /** Ends the building: answers may be asked from now on. */
  seal(): this {
    this.closeFolders(0, this.paths.length);
    const lowers = this.pathLowers;
    this.byPathLower = Array.from(lowers.keys()).sort((a, b) => (lowers[a]! < lowers[b]! ? -1 : lowers[a]! > lowers[b]! ? 1 : a - b));
    this.byName = packed(this.byName);
    this.byTrigram = packed(this.byTrigram);
    this.byToken = packed(this.byToken);
    this.scores = new Int32Array(this.paths.length);
    this.folders = [...this.filesUnder.keys()].sort(compareCodePoints);
    this.folderDepths = Int32Array.from(this.folders, depthOf);
    this.fileDepths = Int32Array.from(this.depths);
    this.sealed = true;
    return this;
  }

  /** What the index answers for `suggestCandidates(snapshot, query)` on this snapshot. */
  candidates(query: SuggestQuery): SuggestCandidate[] {
    if (!this.sealed) throw new Error('PathCatalogue: seal() before asking');
    if (query.limit <= 0) return [];
    const scores = this.scores;
    let touched = false;
    const addTo = (files: ArrayLike<number> | undefined, weight: number): void => {
      if (files === undefined) return;
      touched = true;
      for (let i = 0; i < files.length; i += 1) {
        const at = files[i] as number;
        scores[at] = (scores[at] as number) + weight;
      }
    };
    for (const gram of new Set(query.trigrams)) addTo(this.byTrigram.get(gram), W.trigram);
    if (query.nameLower !== '') addTo(this.byName.get(query.nameLower), W.sameName);
    if (query.pathLower !== '') addTo(this.withPrefix(query.pathLower), W.pathPrefix);
    for (const token of new Set(query.tokens)) addTo(this.byToken.get(token), W.token);
    if (!touched) return [];
    try {
      return this.best(query.limit);
    } finally {
      scores.fill(0);
    }
  }

  /** The `limit` best scored files, best first, ties in path order: one pass for the cut-off score, one to collect. */
  private best(limit: number): SuggestCandidate[] {
    const scores = this.scores;
    const counts = new Map<number, number>();
    for (const score of scores) if (score > 0) counts.set(score, (counts.get(score) ?? 0) + 1);
    let cutoff = 0;
    let above = 0;
    for (const score of [...counts.keys()].sort((a, b) => b - a)) {
      cutoff = score;
      above += counts.get(score) as number;
      if (above >= limit) break;
    }
    // Files scoring over the cut-off all get in; those at it, in path order, while room is left.
    let roomAtCutoff = limit - (above - (counts.get(cutoff) ?? 0));
    const chosen: number[] = [];
    for (let at = 0; at < scores.length; at += 1) {
      const score = scores[at] as number;
      if (score > cutoff) chosen.push(at);
      else if (score === cutoff && score > 0 && roomAtCutoff > 0) {
        chosen.push(at);
        roomAtCutoff -= 1;
      }
    }
    chosen.sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
    return chosen.map((at) => ({ path: this.paths[at] as string, blobSha: this.blobShas[at] as string, score: scores[at] as number }));
  }

  /** What the index answers for `listFolders(scope)` on this snapshot. */
  listFolders(scope: FolderScope): FolderCount[] {
    if (scope.depth <= 0) return [];
    const deepest = deepestListed(scope);
    const found: FolderCount[] = [];
    const [from, to] = rangeUnder(this.folders, scope.folder);
    for (let i = from; i < to && found.length < MAX_FOLDERS; i += 1) {
      if ((this.folderDepths[i] as number) > deepest) continue;
      const path = this.folders[i] as string;
      found.push({ path, fileCount: this.filesUnder.get(path) as number });
    }
    return found;
  }

  /** What the index answers for `listFiles(scope, afterPath, limit)` on this snapshot. */
  listFiles(scope: FolderScope, afterPath: string | null, limit: number): { files: FileSummary[]; total: number } {
    if (!this.listsFiles) throw new Error('PathCatalogue: listFiles before every summary is in');
    const deepest = deepestListed(scope);
    const [from, to] = rangeUnder(this.paths, scope.folder);
    let total = 0;
    if (deepest >= this.deepestFile) total = to - from;
    else for (const _ of this.within(from, to, deepest)) total += 1;
    const files: FileSummary[] = [];
    if (limit <= 0) return { files, total };
    for (const at of this.within(afterPath === null ? from : Math.max(from, firstAfter(this.paths, afterPath)), to, deepest)) {
      files.push(this.summaries[at] as FileSummary);
      if (files.length >= limit) break;
    }
    return { files, total };
  }

  /** Positions from..to of the files at most `deepest` levels down: a deeper file's folder at that level is skipped whole. */
  private *within(from: number, to: number, deepest: number): Generator<number> {
    for (let at = from; at < to;) {
      if ((this.fileDepths[at] as number) <= deepest) {
        yield at;
        at += 1;
      } else {
        const path = this.paths[at] as string;
        let slash = -1;
        for (let level = 0; level < deepest; level += 1) slash = path.indexOf('/', slash + 1);
        at = lowerBound(this.paths, `${path.slice(0, slash)}0`);
      }
    }
  }

  /** Files whose lower-cased path starts with `prefix`: a binary search, then the run after it. */
  private withPrefix(prefix: string): number[] {
    const order = this.byPathLower;
    const lowers = this.pathLowers;
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((lowers[order[middle] as number] as string) < prefix) low = middle + 1;
      else high = middle;
    }
    const found: number[] = [];
    for (let i = low; i < order.length && (lowers[order[i] as number] as string).startsWith(prefix); i += 1) found.push(order[i] as number);
    return found;
  }
}

/** Where the first entry not before `value` is, in entries sorted in code point order. */
function lowerBound(sorted: string[], value: string, after = false): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareCodePoints(sorted[middle] as string, value);
    if (order < 0 || (after && order === 0)) low = middle + 1;
    else high = middle;
  }
  return low;
}

function firstAfter(sorted: string[], value: string): number {
  return lowerBound(sorted, value, true);
}

/**
 * The run of entries under `folder` (all of them for the root), in entries sorted in code point
 * order: from "folder/" up to "folder0", '0' being the code point after '/'.
 */
function rangeUnder(sorted: string[], folder: string): [number, number] {
  if (folder === '') return [0, sorted.length];
  return [lowerBound(sorted, `${folder}/`), lowerBound(sorted, `${folder}0`)];
}

type Postings = Map<string, number[] | Int32Array>;

function post(postings: Postings, term: string, at: number): void {
  const files = postings.get(term) as number[] | undefined;
  if (files === undefined) postings.set(term, [at]);
  // A term twice in one path (a token repeated) counts once, as a term query does.
  else if (files[files.length - 1] !== at) files.push(at);
}

/** A quarter of the memory of arrays of numbers. */
function packed(postings: Postings): Postings {
  return new Map([...postings].map(([term, files]) => [term, Int32Array.from(files)]));
}
