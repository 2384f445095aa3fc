/**
 * Conformance cases of search_code's index calls: trigram candidates for a content plan,
 * files that could not be searched, and contents by path. The model says which visible
 * files hold every trigram a plan asks for; adapters must answer exactly those.
 */
import { type FileDocument } from '@gitdex/contracts';
import { contentTerms, foldText } from '@gitdex/terms';
import type { ContentCandidate, ContentPlan, ContentScope, Snapshot } from '@gitdex/ports';
import { MAIN, makeFile, put, retire, retired, visible } from './index-store.fixtures';
import type { ConformanceContext } from './index-store.cases';

const sub = (text: string): ContentPlan => ({ op: 'substring', text });
/** A substring needed in its exact case: its hump trigrams are asked for too. */
const cased = (text: string): ContentPlan => ({ op: 'substring', text: foldText(text), cased: text });
const and = (...of: ContentPlan[]): ContentPlan => ({ op: 'and', of });
const or = (...of: ContentPlan[]): ContentPlan => ({ op: 'or', of });
const ALL: ContentPlan = { op: 'all' };

/**
 * The model of a plan: whether a content's terms (contracts' contentTerms) hold every
 * term the plan asks for, in their case where it gives one. Adapters ask for a spread subset
 * of a long substring's terms; the plans here use short ones, so no term is left out.
 */
export function selects(plan: ContentPlan, terms: Set<string>): boolean {
  switch (plan.op) {
    case 'all':
      return true;
    case 'substring':
      return contentTerms(plan.cased ?? plan.text).every((t) => terms.has(t));
    case 'and':
      return plan.of.every((p) => selects(p, terms));
    case 'or':
      return plan.of.length > 0 && plan.of.some((p) => selects(p, terms));
  }
}

function expectedCandidates(docs: FileDocument[], snapshot: Snapshot, plan: ContentPlan, scope: ContentScope): string[] {
  return visible(docs, snapshot)
    .filter((doc) => doc.content !== null && doc.kind === 'file')
    .filter((doc) => scope.language === undefined || doc.language === scope.language)
    .filter((doc) => scope.includeGenerated || (!doc.flags.vendored && !doc.flags.generated))
    .filter((doc) => selects(plan, new Set(contentTerms(doc.content as string))))
    .map((doc) => doc.path)
    .filter((path) => scope.afterPath === null || Buffer.compare(Buffer.from(path), Buffer.from(scope.afterPath)) > 0)
    .slice(0, scope.limit);
}

const paths = (candidates: ContentCandidate[]) => candidates.map((c) => c.path);

export function describeContentCases(ctx: ConformanceContext): void {
  const at = (repositoryId: number, generation: number): Snapshot => ({ repositoryId, ref: MAIN, generation });

  describe('content search', () => {
    let id = 0;
    let docs: FileDocument[] = [];
    beforeAll(async () => {
      id = ctx.repositoryId();
      const file = (path: string, content: string | null, extra: Partial<FileDocument> = {}) => makeFile({ repositoryId: id, path, content, ...extra });
      const current = [
        file('src/retry.ts', 'export function retryAfterMs(response) {\n  return Number(response.headers["retry-after"]) * 1000;\n}\n'),
        file('src/client.ts', 'import { retryAfterMs } from "./retry";\nexport const createClient = (options) => ({ options });\n'),
        file('src/Upper.ts', 'export class HttpServer {}\n// TODO(security): check origin\n'),
        file('docs/guide.md', '# Guide\nCall createClient( with options. Café naïve\n'),
        file('lib/quote.py', 'def parse(text):\n    return text.split("\\"")\n'),
        file('vendor/lib.js', 'function createClient() {}\n', { flags: { binary: false, vendored: true, generated: false, tooLarge: false } }),
        file('dist/bundle.js', 'var createClient=1;\n', { flags: { binary: false, vendored: false, generated: true, tooLarge: false } }),
        file('assets/logo.png', null, { flags: { binary: true, vendored: false, generated: false, tooLarge: false }, size: 2048 }),
        file('data/huge.json', null, { flags: { binary: false, vendored: false, generated: false, tooLarge: true }, size: 5_000_000 }),
        file('empty.txt', ''),
        // Every folded trigram of retryAfterMs and HttpServer, none of their humps.
        file('src/lower.ts', 'const httpserver = "retryafterms"; // HTTPSERVER\n'),
        // Every folded trigram and hump trigram of HttpServer (tpS, pSe), not its gram ttpSer.
        file('src/hump.ts', 'const outpServer = 1; // httpserver\n'),
      ];
      const old = file('src/old.ts', 'const legacyMarker = "createClient";\n');
      const later = file('src/later.ts', 'export const freshLine = "pushed a second ago";\n', { fromGeneration: 3 });
      const otherRef = file('src/retry.ts', 'retryAfterMs on another branch\n', { ref: 'refs/heads/dev' });
      await ctx.write([...current, old, later, otherRef].map(put));
      await ctx.write([retire(old, 2)]);
      docs = [...current, retired(old, 2), later, otherRef];
    });

    const plans: [string, ContentPlan][] = [
      ['a literal', sub('retryafterms')],
      ['a literal in several files', sub('createclient')],
      ['a short literal', sub('def')],
      ['an and', and(sub('export'), sub('client'))],
      ['an or', or(sub('httpserver'), sub('parse'))],
      ['an or with "all"', or(sub('zzzz'), ALL)],
      ['a nested plan', and(or(sub('todo'), sub('guide')), sub('origin'))],
      ['quotes and punctuation', sub('("\\"")')],
      ['Unicode', sub('café')],
      ['nothing', sub('qqqxxqq')],
      ['a literal in its case', cased('retryAfterMs')],
      ['literals in their case, and and or', or(and(cased('HttpServer'), sub('todo')), cased('createClient'))],
      ['every file with content', ALL],
      ['an empty and', and()],
    ];

    it.each(plans)('selects exactly the files of %s, at every generation', async (_label, plan) => {
      for (const generation of [1, 2, 3]) {
        const scope = { includeGenerated: false, afterPath: null, limit: 100 };
        expect(paths(await ctx.store().searchCandidates(at(id, generation), plan, scope))).toEqual(expectedCandidates(docs, at(id, generation), plan, scope));
      }
    });

    it('asks for the humps and grams of a literal in its case: a file with its folded trigrams, or without its gram, is no candidate', async () => {
      const scope = { includeGenerated: false, afterPath: null, limit: 100 };
      expect(paths(await ctx.store().searchCandidates(at(id, 1), sub('httpserver'), scope))).toEqual(['src/Upper.ts', 'src/hump.ts', 'src/lower.ts']);
      // src/hump.ts holds the humps too, not the gram.
      expect(paths(await ctx.store().searchCandidates(at(id, 1), cased('HttpServer'), scope))).toEqual(['src/Upper.ts']);
      expect(paths(await ctx.store().searchCandidates(at(id, 1), cased('pServer'), scope))).toEqual(['src/Upper.ts', 'src/hump.ts']);
      expect(paths(await ctx.store().searchCandidates(at(id, 1), cased('retryAfterMs'), scope))).toEqual(['src/client.ts', 'src/retry.ts']);
    });

    it('filters by language and by vendored/generated, and pages in path order', async () => {
      const snapshot = at(id, 1);
      for (const scope of [
        { includeGenerated: true, afterPath: null, limit: 100 },
        { includeGenerated: false, afterPath: null, limit: 100, language: 'TypeScript' },
        { includeGenerated: true, afterPath: null, limit: 100, language: 'Markdown' },
        { includeGenerated: true, afterPath: 'dist/bundle.js', limit: 2 },
        { includeGenerated: true, afterPath: 'src/client.ts', limit: 100 },
        { includeGenerated: true, afterPath: null, limit: 0 },
      ]) {
        for (const plan of [sub('createclient'), ALL]) {
          expect(paths(await ctx.store().searchCandidates(snapshot, plan, scope))).toEqual(expectedCandidates(docs, snapshot, plan, scope));
        }
      }
    });

    it('answers candidates with their summary fields', async () => {
      const [candidate] = await ctx.store().searchCandidates(at(id, 1), sub('httpserver'), { includeGenerated: false, afterPath: null, limit: 10 });
      const doc = docs.find((d) => d.path === 'src/Upper.ts') as FileDocument;
      expect(candidate).toEqual({ path: doc.path, blobSha: doc.blobSha, language: doc.language, flags: doc.flags, size: doc.size });
    });

    it('lists the binary and too large files, which were not searched', async () => {
      const all = await ctx.store().unsearchableFiles(at(id, 1), { includeGenerated: false, afterPath: null, limit: 10 });
      expect(all.map((c) => [c.path, c.flags.binary, c.flags.tooLarge])).toEqual([
        ['assets/logo.png', true, false],
        ['data/huge.json', false, true],
      ]);
      expect(paths(await ctx.store().unsearchableFiles(at(id, 1), { includeGenerated: false, afterPath: 'assets/logo.png', limit: 10 }))).toEqual(['data/huge.json']);
      expect(await ctx.store().unsearchableFiles(at(id + 50_000, 1), { includeGenerated: false, afterPath: null, limit: 10 })).toEqual([]);
    });

    it('counts the files it lists as not searched, by why, in every scope', async () => {
      for (const generation of [1, 2, 3]) {
        for (const scope of [{ includeGenerated: false }, { includeGenerated: true }, { includeGenerated: true, language: 'JSON' }, { includeGenerated: true, language: 'TypeScript' }]) {
          const listed = await ctx.store().unsearchableFiles(at(id, generation), { ...scope, afterPath: null, limit: 100 });
          const expected = { binary: listed.filter((c) => c.flags.binary).length, tooLarge: listed.filter((c) => !c.flags.binary && c.flags.tooLarge).length };
          expect(await ctx.store().countUnsearchable(at(id, generation), scope)).toEqual(expected);
        }
      }
      expect(await ctx.store().countUnsearchable(at(id, 1), { includeGenerated: false })).toEqual({ binary: 1, tooLarge: 1 });
      expect(await ctx.store().countUnsearchable(at(id + 50_000, 1), { includeGenerated: true })).toEqual({ binary: 0, tooLarge: 0 });
    });

    it('reads contents of visible paths, in path order, leaving out missing ones', async () => {
      const contents = await ctx.store().readContents(at(id, 1), ['src/retry.ts', 'assets/logo.png', 'nope.ts', 'src/old.ts', 'src/later.ts']);
      const byPath = (path: string) => docs.find((d) => d.path === path && d.ref === MAIN)?.content;
      expect(contents).toEqual([
        { path: 'assets/logo.png', content: null },
        { path: 'src/old.ts', content: byPath('src/old.ts') },
        { path: 'src/retry.ts', content: byPath('src/retry.ts') },
      ]);
      expect(await ctx.store().readContents(at(id, 2), ['src/old.ts', 'src/later.ts'])).toEqual([]);
      expect(await ctx.store().readContents(at(id, 3), ['src/later.ts'])).toEqual([{ path: 'src/later.ts', content: byPath('src/later.ts') }]);
      expect(await ctx.store().readContents(at(id, 1), [])).toEqual([]);
    });

    it("rejects every content call whose signal was aborted, with the signal's reason (IndexCallOptions, the last argument)", async () => {
      const controller = new AbortController();
      const reason = new Error('caller gave up (test)');
      controller.abort(reason);
      const options = { signal: controller.signal };
      const scope = { includeGenerated: false, afterPath: null, limit: 10 };
      await expect(ctx.store().searchCandidates(at(id, 1), ALL, scope, options)).rejects.toBe(reason);
      await expect(ctx.store().unsearchableFiles(at(id, 1), scope, options)).rejects.toBe(reason);
      await expect(ctx.store().countUnsearchable(at(id, 1), { includeGenerated: false }, options)).rejects.toBe(reason);
      await expect(ctx.store().readContents(at(id, 1), ['src/later.ts'], options)).rejects.toBe(reason);
    });
  });

  describe('content search across generations', () => {
    it('finds content with the flip that makes it readable, forgets discarded and pruned versions, and finds a version whose retirement was undone', async () => {
      const id = ctx.repositoryId();
      const v1 = makeFile({ repositoryId: id, path: 'a.ts', content: 'const original = 1;\n' });
      await ctx.write([put(v1)]);
      const v2 = makeFile({ repositoryId: id, path: 'a.ts', content: 'const replaced = 2;\n', fromGeneration: 2 });
      await ctx.write([retire(v1, 2), put(v2)]);
      const scope = { includeGenerated: false, afterPath: null, limit: 10 };
      expect(paths(await ctx.store().searchCandidates(at(id, 1), sub('original'), scope))).toEqual(['a.ts']);
      expect(paths(await ctx.store().searchCandidates(at(id, 1), sub('replaced'), scope))).toEqual([]);
      expect(paths(await ctx.store().searchCandidates(at(id, 2), sub('replaced'), scope))).toEqual(['a.ts']);
      expect(paths(await ctx.store().searchCandidates(at(id, 2), sub('original'), scope))).toEqual([]);

      // An attempt that never flipped is undone: generation 1 is searchable again, also at 2.
      await ctx.store().discardAfter(at(id, 1));
      await ctx.store().refresh();
      expect(paths(await ctx.store().searchCandidates(at(id, 2), sub('original'), scope))).toEqual(['a.ts']);
      expect(paths(await ctx.store().searchCandidates(at(id, 2), sub('replaced'), scope))).toEqual([]);

      // A flip to 2 and a prune of 1: only the new content is found.
      await ctx.write([retire(v1, 2), put(v2)]);
      await ctx.store().pruneRetired(id, MAIN, 2);
      await ctx.store().refresh();
      expect(paths(await ctx.store().searchCandidates(at(id, 2), sub('original'), scope))).toEqual([]);
      expect(paths(await ctx.store().searchCandidates(at(id, 2), sub('replaced'), scope))).toEqual(['a.ts']);

      await ctx.store().deleteRef(id, MAIN);
      await ctx.store().refresh();
      expect(await ctx.store().searchCandidates(at(id, 2), ALL, scope)).toEqual([]);
    });
  });
}
