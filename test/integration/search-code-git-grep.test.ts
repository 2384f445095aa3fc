// search_code on real Elasticsearch and SQLite answers what `git grep -n` answers at the
// indexed commit, for random literal and regex queries over real package trees; a push is
// searchable with its flip; the deadline stops a search over a large corpus.
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import type { FileDocument, SearchCodeOutput } from '@gitdex/contracts';
import type { IndexStore, Snapshot } from '@gitdex/ports';
import { resolveDeps, type ReaderDeps } from '../../services/reader/src/deps';
import { callTool } from '../../services/reader/src/tools/call-tool';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { commitFiles } from '../github-standin/fixture-repos';
import { repositoryFromFolder } from '../support/copy-tree';
import { gitHead, gitShow } from '../support/git-truth';
import { startPipeline, type Pipeline } from '../support/pipeline';

jest.setTimeout(600_000);

const MAIN = 'refs/heads/main';
const PACKAGES = ['kafkajs', 'pino', 'yaml'];

interface Repo {
  name: string;
  dir: string;
  id: number;
  /** Paths search_code searches with include_generated: text stored in the index exactly as git holds it (no binary/too-large). */
  searchable: Set<string>;
  /** Text lines of the searchable files, to draw queries from. */
  lines: { path: string; text: string }[];
}

/** A small seeded PRNG (mulberry32): the same queries on every run with the same seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Query {
  label: string;
  args: { query: string; regex?: boolean; case_sensitive?: boolean; path?: string };
  git: string[];
}

const escapeRe = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
/** search_code's glob rule in git pathspec terms: no "/" means "at any depth". */
const pathspec = (glob: string) => `:(glob)${glob.includes('/') ? glob : `**/${glob}`}`;

function makeQueries(repos: Repo[], count: number, seed: number): Query[] {
  const rnd = random(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const queries: Query[] = [];
  const words = () => {
    for (;;) {
      const { text } = pick(pick(repos).lines);
      const found = text.match(/[A-Za-z_][A-Za-z0-9_]{3,}/g);
      if (found && found.length > 0) return found;
    }
  };
  const globs = ['**/*.js', 'src/**', '*.md', '*.ts', 'lib/**/*.js', 'test*/**'];
  while (queries.length < count) {
    const kind = Math.floor(rnd() * 8);
    const ws = words();
    const word = pick(ws);
    const other = pick(words());
    const glob = rnd() < 0.25 ? pick(globs) : undefined;
    const withPath = (q: Query): Query => (glob ? { ...q, label: `${q.label} in ${glob}`, args: { ...q.args, path: glob }, git: [...q.git, '--', pathspec(glob)] } : q);
    switch (kind) {
      case 0:
        queries.push(withPath({ label: `literal word ${word}`, args: { query: word, case_sensitive: true }, git: ['-F', '-e', word] }));
        break;
      case 1: {
        const start = Math.floor(rnd() * Math.max(1, word.length - 3));
        const fragment = word.slice(start, start + 3 + Math.floor(rnd() * 4)).toLowerCase();
        queries.push(withPath({ label: `case-insensitive fragment ${fragment}`, args: { query: fragment }, git: ['-F', '-i', '-e', fragment] }));
        break;
      }
      case 2: {
        // A line fragment with punctuation and spaces, literally.
        const { text } = pick(pick(repos).lines);
        const start = Math.floor(rnd() * Math.max(1, text.length - 8));
        const fragment = text.slice(start, start + 5 + Math.floor(rnd() * 12));
        if (fragment.trim().length < 3 || /[^\x20-\x7e]/.test(fragment)) continue;
        queries.push(withPath({ label: `literal fragment ${JSON.stringify(fragment)}`, args: { query: fragment, case_sensitive: true }, git: ['-F', '-e', fragment] }));
        break;
      }
      case 3: {
        const i = Math.floor(rnd() * word.length);
        const ch = word[i] as string;
        const pattern = `${escapeRe(word.slice(0, i))}[${ch}${ch === 'x' ? 'y' : 'x'}]${escapeRe(word.slice(i + 1))}`;
        queries.push(withPath({ label: `class ${pattern}`, args: { query: pattern, regex: true, case_sensitive: true }, git: ['-P', '-e', pattern] }));
        break;
      }
      case 4: {
        const pattern = `(${escapeRe(word)}|${escapeRe(other)})`;
        queries.push(withPath({ label: `alternation ${pattern}`, args: { query: pattern, regex: true, case_sensitive: true }, git: ['-P', '-e', pattern] }));
        break;
      }
      case 5: {
        const pattern = rnd() < 0.5 ? `^[ \\t]*${escapeRe(word)}` : `${escapeRe(word)}[;,)]?$`;
        queries.push(withPath({ label: `anchored ${pattern}`, args: { query: pattern, regex: true, case_sensitive: true }, git: ['-P', '-e', pattern] }));
        break;
      }
      case 6: {
        const pattern = `\\b${escapeRe(word.toLowerCase())}\\b`;
        queries.push(withPath({ label: `case-insensitive word regex ${pattern}`, args: { query: pattern, regex: true, case_sensitive: false }, git: ['-P', '-i', '-e', pattern] }));
        break;
      }
      default: {
        const pattern = `${escapeRe(word.slice(0, 2))}\\w*${escapeRe(word.slice(-2))}.{0,20}\\(`;
        queries.push(withPath({ label: `repetition ${pattern}`, args: { query: pattern, regex: true, case_sensitive: true }, git: ['-P', '-e', pattern] }));
        break;
      }
    }
  }
  return queries;
}

/** `git grep -n` at the commit: matching lines per path (searchable paths only). */
function gitGrep(repo: Repo, args: string[]): Map<string, number[]> {
  const pathspecAt = args.indexOf('--');
  const options = pathspecAt < 0 ? args : args.slice(0, pathspecAt);
  const specs = pathspecAt < 0 ? [] : args.slice(pathspecAt);
  let out = '';
  try {
    out = execFileSync('git', ['-c', 'grep.lineNumber=true', 'grep', '-n', '-I', '-z', '--no-color', ...options, 'HEAD', ...specs], {
      cwd: repo.dir,
      env: { ...process.env, LC_ALL: 'C.UTF-8' },
      maxBuffer: 1 << 28,
    }).toString('utf8');
  } catch (error) {
    if ((error as { status?: number }).status !== 1) throw error;
  }
  const result = new Map<string, number[]>();
  for (const record of out.split('\n')) {
    if (!record) continue;
    const [where = '', line = ''] = record.split('\0');
    const path = where.replace(/^HEAD:/, '');
    if (!repo.searchable.has(path)) continue;
    result.set(path, [...(result.get(path) ?? []), Number(line)]);
  }
  return result;
}

async function searchAll(deps: ReaderDeps, repo: Repo, args: Query['args']): Promise<Map<string, { count: number; shown: number[] }>> {
  const result = new Map<string, { count: number; shown: number[] }>();
  let cursor: string | null = null;
  do {
    // git grep searches every file, vendored and generated ones too: so does search_code with include_generated.
    const answer = await callTool(deps, 'search_code', { ...args, repository: repo.name, include_generated: true, limit: 100, context_lines: 0, ...(cursor ? { cursor } : {}) }, null, {
      transport: 'test',
    });
    const out = answer.structured as SearchCodeOutput;
    expect({ complete: out.complete, exact: out.counts_exact }).toEqual({ complete: true, exact: true });
    for (const file of out.files) result.set(file.path, { count: file.match_count, shown: file.matches.map((m) => m.line) });
    cursor = out.next_cursor;
  } while (cursor);
  return result;
}

/** What search_code found equals git grep: the same files, the same count per file, and the lines shown are git's first ones. */
function expectSame(found: Map<string, { count: number; shown: number[] }>, expected: Map<string, number[]>, label: string): void {
  const summary = (m: Map<string, number>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  expect({ label, files: summary(new Map([...found].map(([p, f]) => [p, f.count]))) }).toEqual({ label, files: summary(new Map([...expected].map(([p, l]) => [p, l.length]))) });
  for (const [path, file] of found) expect({ label, path, lines: file.shown }).toEqual({ label, path, lines: (expected.get(path) ?? []).slice(0, file.shown.length) });
}

async function copyInto(target: IndexStore, source: IndexStore, repositoryId: number): Promise<void> {
  const repository = await source.getRepository(repositoryId);
  const state = await source.getRefState(repositoryId, MAIN);
  if (!repository || !state) throw new Error('nothing to copy');
  const snapshot: Snapshot = { repositoryId, ref: MAIN, generation: state.generation };
  const writes = [];
  for (const entry of await source.visibleEntries(snapshot, null, 100_000)) {
    const doc = (await source.getFile(snapshot, entry.path)) as FileDocument;
    const { retiredAtGeneration: _dropped, ...visible } = doc;
    writes.push({ type: 'put' as const, document: visible });
  }
  await target.writeFiles(writes);
  await target.putRepository(repository);
  await target.putRefState(state);
}

describe('search_code answers what git grep answers', () => {
  let p: Pipeline;
  let sqlite: SqliteIndexStore;
  const repos: Repo[] = [];

  beforeAll(async () => {
    p = await startPipeline();
    sqlite = new SqliteIndexStore({ file: ':memory:' });
    await sqlite.ensureReady();
    for (const name of PACKAGES) {
      const source = dirname(require.resolve(`${name}/package.json`));
      const repo = await repositoryFromFolder(p.root, 'pkg', name, source);
      const id = await p.standIn.repoId('pkg', name);
      await p.standIn.push('pkg', name, { ref: MAIN });
      await p.waitForCommit(id, MAIN, repo.sha, 180_000);
      const state = (await p.index.getRefState(id, MAIN))!;
      const snapshot = { repositoryId: id, ref: MAIN, generation: state.generation };
      const searchable = new Set<string>();
      const lines: Repo['lines'] = [];
      for (const entry of await p.index.visibleEntries(snapshot, null, 100_000)) {
        const doc = await p.index.getFile(snapshot, entry.path);
        if (!doc || doc.content === null || doc.kind !== 'file') continue;
        // Files that are not valid UTF-8 are stored decoded: their lines are not git's bytes.
        if (!gitShow(repo.dir, 'HEAD', entry.path).equals(Buffer.from(doc.content, 'utf8'))) continue;
        searchable.add(entry.path);
        for (const text of doc.content.split('\n')) if (text.length > 0 && text.length < 300) lines.push({ path: entry.path, text });
      }
      repos.push({ name: `pkg/${name}`, dir: repo.dir, id, searchable, lines });
      await copyInto(sqlite, p.index, id);
    }
  });
  afterAll(async () => {
    await sqlite?.close();
    await p?.close();
  });

  const decks: [string, () => IndexStore][] = [
    ['Elasticsearch', () => p.index],
    ['SQLite', () => sqlite],
  ];

  describe.each(decks)('on %s', (_name, index) => {
    it('random literal and regex queries, both case modes, with path globs: the same (path, line) set as git grep -n', async () => {
      const deps = resolveDeps({ index: index(), limits: { searchDeadlineMs: 60_000, timeoutMs: 120_000 } });
      const seed = Number(process.env.SEARCH_SEED ?? 20261201);
      let nonEmpty = 0;
      for (const query of makeQueries(repos, 60, seed)) {
        for (const repo of repos) {
          const expected = gitGrep(repo, query.git);
          if (expected.size > 0) nonEmpty += 1;
          expectSame(await searchAll(deps, repo, query.args), expected, `${query.label} on ${repo.name} (seed ${seed})`);
        }
      }
      // The queries come from the files: most find something.
      expect(nonEmpty).toBeGreaterThan(40);
    });
  });

  it('a pushed line is searchable with the flip that makes it readable, and a removed line is not found any more', async () => {
    const repo = repos[1] as Repo;
    // The flip as readers see it: their ref-state lookups are searches, which see a write once its
    // refresh completed; waitForCommit's realtime get can see it a moment before.
    const flipped = async () => {
      const head = gitHead(repo.dir, 'main');
      await p.waitForCommit(repo.id, MAIN, head);
      await p.waitFor(async () => (await p.index.listRefStates(repo.id)).some((s) => s.ref === MAIN && s.commitSha === head), 'the flip as readers see it');
    };
    const deps = resolveDeps({ index: p.index });
    const victim = [...repo.searchable].find((path) => path.endsWith('.js')) as string;
    const removedLine = 'zqxUniqueRemovedMarker = 1;';
    await commitFiles(repo.dir, { 'src/fresh.js': `const zqxFreshlyPushed = ${Date.now()};\n`, [victim]: `// ${removedLine}\n` }, 'first');
    await p.standIn.push('pkg', 'pino', { ref: MAIN });
    await flipped();
    const search = async (query: string) => (await callTool(deps, 'search_code', { query, repository: repo.name }, null, { transport: 'test' })).structured as SearchCodeOutput;
    expect((await search('zqxFreshlyPushed')).files.map((f) => f.path)).toEqual(['src/fresh.js']);
    expect((await search('zqxUniqueRemovedMarker')).files.map((f) => f.path)).toEqual([victim]);
    await commitFiles(repo.dir, { [victim]: '// gone\n' }, 'second');
    await p.standIn.push('pkg', 'pino', { ref: MAIN });
    await flipped();
    expect((await search('zqxUniqueRemovedMarker')).total_files).toBe(0);
    expect((await search('zqxFreshlyPushed')).total_files).toBe(1);
  });

  it('the deadline stops a search over a large corpus and answers what it found, complete: false', async () => {
    // The shortest deadline the tool allows: on a warm machine 150 ms was enough to search the whole package.
    const deps = resolveDeps({ index: p.index, limits: { searchDeadlineMs: 100 } });
    const source = dirname(require.resolve('typescript/package.json'));
    const large = await repositoryFromFolder(p.root, 'big', 'typescript', source);
    const id = await p.standIn.repoId('big', 'typescript');
    await p.standIn.push('big', 'typescript', { ref: MAIN });
    await p.waitForCommit(id, MAIN, large.sha, 300_000);
    // The listing of ref states (a search, not a realtime get) shows the commit too.
    await p.waitFor(async () => (await p.index.listRefStates(id)).some((s) => s.ref === MAIN && s.commitSha === large.sha && s.status === 'ready'), 'the listed ref state');
    // Matches nearly every line of every file: far more work than the deadline allows.
    const answer = (await callTool(deps, 'search_code', { query: '[a-z]', regex: true, repository: 'big/typescript', include_generated: true, context_lines: 10 }, null, { transport: 'test' }))
      .structured as SearchCodeOutput;
    expect(answer).toMatchObject({ complete: false, counts_exact: false });
    const state = (await p.index.getRefState(id, MAIN))!;
    expect(answer.total_files).toBeLessThan(state.fileCount);
    // A narrower search with time enough completes.
    const full = (
      await callTool(
        resolveDeps({ index: p.index, limits: { searchDeadlineMs: 120_000, timeoutMs: 300_000 } }),
        'search_code',
        { query: 'function', repository: 'big/typescript', path: 'lib/*.d.ts' },
        null,
        { transport: 'test' },
      )
    ).structured as SearchCodeOutput;
    expect(full.complete).toBe(true);
    expect(full.total_files).toBeGreaterThan(0);
  });
});
