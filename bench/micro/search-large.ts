/**
 * search_code on a large repository (bench/data's large corpus, 55,000 files by default) on
 * Elasticsearch (or SQLite with --backend=sqlite), beside ripgrep over a checkout of the same files, in one process: the
 * reader's search with its content cache off (searchCacheBytes 1) and on (256 MB, one deps
 * kept across every case, as a running reader keeps it), and `rg` on the checkout, each ask
 * timed on all three sides in turn.
 *
 * Cases (`--cases`, default all):
 * - first: 20 distinct rare identifiers (each in exactly one file), each asked once a side;
 * - selective: one rare identifier asked 7 times;
 * - insensitive: a rare identifier lower-cased, case_sensitive false, 7 times;
 * - common: the literal `return`, 5 times (gitdex stops at limits.searchMaxFiles matching
 *   files, ripgrep reads every file: the ratio is of what each answers, not of equal work);
 * - regex: `function\s+\w+Error\(`, 5 times.
 * Every ask's files are checked against ripgrep's where gitdex answered completely: the
 * paths of its page when they are all of them, else the count of files.
 *
 * The index (prefix `microsearch`, or the SQLite file microsearch.sqlite beside the checkout;
 * repository bench/large) and the checkout (under $TMPDIR/gitdex-microsearch) are kept: a later run whose corpus is the same reuses them and
 * only measures (minutes to index, about two to measure); --reindex builds both again.
 * Needs `npx tsc -b`, Elasticsearch for its backend (`npm run engines:up`; ELASTICSEARCH_URL,
 * default http://127.0.0.1:19200) and ripgrep (RG, default rg on the PATH). Run:
 *   npx tsx --tsconfig bench/tsconfig.json bench/micro/search-large.ts [files=55000] [--reindex] [--out=FILE] [--cases=first,selective,insensitive,common,regex] [--backend=elasticsearch|sqlite]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FileDocument, SearchCodeInput, SearchCodeOutput } from '@gitdex/contracts';
import type { FileWrite, IndexStore } from '@gitdex/ports';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { buildDocument, gitBlobSha } from '@gitdex/indexer';
import { resolveDeps, type ReaderDeps } from '../../services/reader/src/deps';
import { searchCode } from '../../services/reader/src/tools/search-code';
import { readyState, repositoryDocument } from '../../services/reader/test/support/documents';
import { largeCorpus, MAX_FILE_BYTES, type Corpus } from '../data/corpora';
import { median, p99, ratio } from '../measure/stats';

const CASES = ['first', 'selective', 'insensitive', 'common', 'regex'] as const;
type CaseName = (typeof CASES)[number];

const BACKENDS = ['elasticsearch', 'sqlite'] as const;
type BackendName = (typeof BACKENDS)[number];

function parseArgs(argv: string[]): { files: number; reindex: boolean; out: string | null; cases: CaseName[]; backend: BackendName } {
  let files = 55_000;
  let backend: BackendName = 'elasticsearch';
  let reindex = false;
  let out: string | null = null;
  let cases: CaseName[] = [...CASES];
  for (const arg of argv) {
    if (arg === '--reindex') reindex = true;
    else if (arg.startsWith('--out=')) out = arg.slice('--out='.length);
    else if (arg.startsWith('--cases=')) {
      const names = arg.slice('--cases='.length).split(',').filter(Boolean);
      const unknown = names.filter((n) => !(CASES as readonly string[]).includes(n));
      if (unknown.length > 0) throw new Error(`--cases: unknown ${unknown.join(', ')}; known: ${CASES.join(', ')}`);
      cases = CASES.filter((c) => names.includes(c));
    } else if (arg.startsWith('--backend=')) {
      const name = arg.slice('--backend='.length);
      if (!(BACKENDS as readonly string[]).includes(name)) throw new Error(`--backend: unknown ${name}; known: ${BACKENDS.join(', ')}`);
      backend = name as BackendName;
    } else if (/^\d+$/.test(arg)) files = Number(arg);
    else throw new Error(`unknown argument ${arg}; usage: [files=55000] [--reindex] [--out=FILE] [--cases=${CASES.join(',')}] [--backend=${BACKENDS.join('|')}]`);
  }
  return { files, reindex, out, cases, backend };
}

const ELASTICSEARCH_URL = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:19200';
const PREFIX = 'microsearch';
const RG = process.env.RG ?? 'rg';
const WORK = join(tmpdir(), 'gitdex-microsearch');
const CHECKOUT = join(WORK, 'checkout');
const REPOSITORY = { id: 9001, fullName: 'bench/large' };
const REF = 'refs/heads/main';
/** The indexer's write buffer (DEFAULT_INDEX_REF_OPTIONS.bulk): batches as large as it sends. */
const BATCH_WRITES = 500;
const BATCH_BYTES = 8 * 1024 * 1024;
const CACHE_ON_BYTES = 256 * 1024 * 1024;
/** A page large enough to hold every file of a rare word, so its paths can be checked against ripgrep's. */
const PAGE = 50;
const FIRST_ASKS = 20;
/** Candidate words checked for rarity over the whole checkout: far more than the 22 used (see pickWords). */
const CANDIDATES = 3000;
/** Camel case made of words (`formatFileName`, `InfoStatusCode`): hashes and base64 have humps too, but not of lower-case runs. */
const IDENTIFIER = /^_*[A-Za-z][a-z]+(?:[A-Z][a-z]+)+$/;
/** Source files whose words are counted for the candidates, spread evenly over the corpus. */
const SAMPLE_FILES = 400;

// ---- corpus, checkout and index -------------------------------------------------------

/**
 * What identifies the corpus: its paths and sizes. It stands as the indexed commit, so a run
 * on the same files finds its index ready at that commit and reuses it.
 */
function corpusCommit(corpus: Corpus): string {
  const hash = createHash('sha1');
  for (const f of corpus.files) hash.update(`${f.path}\0${f.size}\n`);
  return hash.digest('hex');
}

function ensureCheckout(corpus: Corpus, commit: string, rebuild: boolean): boolean {
  const marker = join(WORK, 'checkout.commit');
  if (!rebuild && existsSync(marker) && readFileSync(marker, 'utf8') === commit) return false;
  rmSync(CHECKOUT, { recursive: true, force: true });
  rmSync(marker, { force: true });
  const made = new Set<string>();
  for (const f of corpus.files) {
    const dest = join(CHECKOUT, f.path);
    const dir = dirname(dest);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    copyFileSync(f.abs, dest);
  }
  // Written last: a checkout cut short is never taken for a complete one.
  writeFileSync(marker, commit);
  return true;
}

const SQLITE_FILE = join(WORK, `${PREFIX}.sqlite`);

/** A store of the backend; `fresh` drops what an earlier run left first. */
async function openIndex(backend: BackendName, fresh: boolean): Promise<IndexStore> {
  if (fresh) {
    if (backend === 'elasticsearch') await deleteIndices();
    else for (const suffix of ['', '-wal', '-shm']) rmSync(`${SQLITE_FILE}${suffix}`, { force: true });
  }
  const index = backend === 'elasticsearch' ? new ElasticsearchIndexStore({ node: ELASTICSEARCH_URL, indexPrefix: PREFIX }) : new SqliteIndexStore({ file: SQLITE_FILE });
  await index.ensureReady();
  return index;
}

async function deleteIndices(): Promise<void> {
  const response = await fetch(`${ELASTICSEARCH_URL}/${PREFIX}-*?expand_wildcards=all`, { method: 'DELETE' });
  if (!response.ok && response.status !== 404) throw new Error(`deleting ${PREFIX}-* failed: ${response.status} ${await response.text()}`);
}

/** The corpus as the indexer writes it: the repository, its files in the write buffer's batches (one in flight while the next is built), then the ref flipped to ready. */
async function indexCorpus(index: IndexStore, corpus: Corpus, commit: string): Promise<number> {
  await index.putRepository(repositoryDocument({ id: REPOSITORY.id, fullName: REPOSITORY.fullName, private: false }));
  const context = { repositoryId: REPOSITORY.id, ref: REF, commitSha: commit, generation: 1, maxFileBytes: MAX_FILE_BYTES };
  let batch: FileWrite[] = [];
  let bytes = 0;
  let written = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const send = async () => {
    await inFlight;
    inFlight = index.writeFiles(batch);
    const before = written;
    written += batch.length;
    batch = [];
    bytes = 0;
    if (Math.floor(before / 10_000) !== Math.floor(written / 10_000)) console.log(`  ${written.toLocaleString('en')} / ${corpus.files.length.toLocaleString('en')} files sent`);
  };
  for (const f of corpus.files) {
    const content = readFileSync(f.abs);
    const document: FileDocument = buildDocument({ path: f.path, mode: f.executable ? '100755' : '100644', blobSha: gitBlobSha(content), size: content.length, content }, context);
    batch.push({ type: 'put', document });
    bytes += content.length;
    if (batch.length >= BATCH_WRITES || bytes >= BATCH_BYTES) await send();
  }
  if (batch.length > 0) await send();
  await inFlight;
  await index.refresh();
  await index.putRefState(readyState(REPOSITORY.id, REF, commit, 1, written, new Date().toISOString()));
  return written;
}

// ---- words ----------------------------------------------------------------------------

interface Words {
  /** Asked once a side each (the first-ask case). */
  first: string[];
  selective: string;
  insensitive: string;
}

/** Every file of the checkout that holds `word` (ripgrep, -uu as in the cases). */
function filesWith(word: string, flags: string[]): string[] {
  const result = spawnSync(RG, ['-uu', '-F', '-l', ...flags, '-e', word, '--', '.'], { cwd: CHECKOUT, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0 && result.status !== 1) throw new Error(`rg -l ${word} exited ${result.status}: ${result.stderr}`);
  return result.stdout.split('\n').filter(Boolean);
}

/**
 * Camel-case identifiers (IDENTIFIER) of 8 to 40 characters that are in one file of an even sample of
 * the corpus's .js/.ts files (as the search suite's pickWords does), then kept only if
 * ripgrep finds them in exactly one file of the whole checkout: most rare words of a sample
 * are in several files of the corpus (a package's cjs and esm builds, its .d.ts and source
 * maps). Lines over 300 characters are left out: minified code and inline source maps,
 * whose base64 reads as identifiers. Deterministic for a corpus, and kept beside the
 * checkout for the next run.
 */
function pickWords(corpus: Corpus, commit: string): Words {
  const saved = join(WORK, `words-${commit}.json`);
  if (existsSync(saved)) return JSON.parse(readFileSync(saved, 'utf8')) as Words;
  const sources = corpus.files.filter((f) => /\.(js|ts|mjs|cjs)$/.test(f.path));
  const step = Math.max(1, Math.floor(sources.length / SAMPLE_FILES));
  const counts = new Map<string, number>();
  for (let i = 0; i < sources.length; i += step) {
    const text = readFileSync((sources[i] as (typeof sources)[number]).abs, 'utf8');
    const words = new Set<string>();
    for (const line of text.split('\n')) if (line.length <= 300) for (const word of line.match(/\b[A-Za-z_][A-Za-z0-9_]{7,39}\b/g) ?? []) words.add(word);
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const rare = [...counts.entries()]
    .filter(([w, n]) => n === 1 && IDENTIFIER.test(w))
    .map(([w]) => w)
    .sort();
  const spread = Math.max(1, Math.floor(rare.length / CANDIDATES));
  const candidates = rare.filter((_, i) => i % spread === 0).slice(0, CANDIDATES);
  // One pass over the checkout for every candidate, each match with its file. Case-sensitive:
  // ripgrep's -i over thousands of literals is a hundred times slower.
  const patterns = join(WORK, 'candidates.txt');
  writeFileSync(patterns, `${candidates.join('\n')}\n`);
  const result = spawnSync(RG, ['-uu', '-F', '-o', '--null', '--no-heading', '--no-line-number', '-f', patterns, '--', '.'], { cwd: CHECKOUT, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0 && result.status !== 1) throw new Error(`rg (picking words) exited ${result.status}: ${result.stderr}`);
  const filesOf = new Map<string, Set<string>>();
  for (const line of result.stdout.split('\n')) {
    const nul = line.indexOf('\0');
    if (nul < 0) continue;
    const word = line.slice(nul + 1);
    const files = filesOf.get(word) ?? new Set<string>();
    files.add(line.slice(0, nul));
    filesOf.set(word, files);
  }
  const unique = candidates.filter((w) => filesOf.get(w)?.size === 1);
  // The case-insensitive word must be in one file whatever its case; checked one at a time.
  const insensitive = unique.find((w) => filesWith(w.toLowerCase(), ['-i']).length === 1);
  const rest = unique.filter((w) => w !== insensitive);
  if (!insensitive || rest.length < FIRST_ASKS + 1) throw new Error(`only ${unique.length} of ${candidates.length} candidate words are in exactly one file; need ${FIRST_ASKS + 2}`);
  const [selective, ...others] = rest as [string, ...string[]];
  const every = Math.max(1, Math.floor(others.length / FIRST_ASKS));
  const words: Words = { selective, insensitive, first: others.filter((_, i) => i % every === 0).slice(0, FIRST_ASKS) };
  writeFileSync(saved, `${JSON.stringify(words)}\n`);
  return words;
}

// ---- the cases ------------------------------------------------------------------------

interface Case {
  name: CaseName;
  label: string;
  /** One query a sample; each is asked of every side. */
  queries: string[];
  regex: boolean;
  caseSensitive: boolean;
}

function casesOf(words: Words, names: CaseName[]): Case[] {
  const all: Case[] = [
    { name: 'first', label: `first ask: ${words.first.length} distinct rare identifiers, each asked once`, queries: words.first, regex: false, caseSensitive: true },
    { name: 'selective', label: `warm selective literal "${words.selective}"`, queries: Array<string>(7).fill(words.selective), regex: false, caseSensitive: true },
    {
      name: 'insensitive',
      label: `case-insensitive literal "${words.insensitive.toLowerCase()}"`,
      queries: Array<string>(7).fill(words.insensitive.toLowerCase()),
      regex: false,
      caseSensitive: false,
    },
    { name: 'common', label: 'common literal "return"', queries: Array<string>(5).fill('return'), regex: false, caseSensitive: true },
    { name: 'regex', label: 'regex "function\\s+\\w+Error\\("', queries: Array<string>(5).fill('function\\s+\\w+Error\\('), regex: true, caseSensitive: true },
  ];
  return all.filter((c) => names.includes(c.name));
}

type Side = 'off' | 'on' | 'rg';
const SIDES: Side[] = ['off', 'on', 'rg'];

interface Answer {
  ms: number;
  /** The paths of the page (gitdex) or every matching file (ripgrep). */
  paths: string[];
  files: number;
  matches: number;
  complete: boolean;
}

async function askGitdex(deps: ReaderDeps, c: Case, query: string): Promise<Answer> {
  // include_generated: ripgrep reads every file of the checkout, so gitdex searches them all too.
  const input: SearchCodeInput = { query, regex: c.regex, case_sensitive: c.caseSensitive, repository: REPOSITORY.fullName, limit: PAGE, context_lines: 0, include_generated: true };
  const started = performance.now();
  const answer = await searchCode(deps, null, input);
  const ms = performance.now() - started;
  const out: SearchCodeOutput = answer.structured;
  return { ms, paths: out.files.map((f) => f.path), files: out.total_files, matches: out.total_matches, complete: out.complete };
}

/**
 * ripgrep with a count per file, read through a pipe: rg stops at a file's first match
 * when its output is /dev/null, which would time less than a search that answers.
 * -uu: hidden and ignored files are in the index too.
 */
function askRipgrep(c: Case, query: string): Answer {
  const flags = ['-uu', '-c', '--null', ...(c.regex ? [] : ['-F']), ...(c.caseSensitive ? [] : ['-i'])];
  const started = performance.now();
  const result = spawnSync(RG, [...flags, '-e', query, '--', '.'], { cwd: CHECKOUT, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - started;
  if (result.status !== 0 && result.status !== 1) throw new Error(`rg ${flags.join(' ')} -e ${query} exited ${result.status}: ${result.stderr}`);
  const paths: string[] = [];
  let matches = 0;
  for (const line of result.stdout.split('\n')) {
    const nul = line.indexOf('\0');
    if (nul < 0) continue;
    paths.push(line.slice(0, nul).replace(/^\.\//, ''));
    matches += Number(line.slice(nul + 1));
  }
  return { ms, paths, files: paths.length, matches, complete: true };
}

/** Where gitdex's files differ from ripgrep's, as far as its answer tells: null when they agree or cannot be compared. */
function mismatch(gitdex: Answer, rg: Answer): string | null {
  if (!gitdex.complete) return null;
  if (gitdex.files <= PAGE) {
    const mine = new Set(gitdex.paths);
    const theirs = new Set(rg.paths);
    const onlyMine = [...mine].filter((p) => !theirs.has(p));
    const onlyTheirs = [...theirs].filter((p) => !mine.has(p));
    if (onlyMine.length === 0 && onlyTheirs.length === 0) return null;
    const list = (paths: string[]) => (paths.length === 0 ? 'none' : `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ` (+${paths.length - 5})` : ''}`);
    return `gitdex ${mine.size} files, rg ${theirs.size}; only gitdex: ${list(onlyMine)}; only rg: ${list(onlyTheirs)}`;
  }
  return gitdex.files === rg.files ? null : `gitdex counts ${gitdex.files} files (complete), rg ${rg.files}`;
}

interface CaseResult {
  name: CaseName;
  label: string;
  queries: string[];
  samples: Record<Side, number[]>;
  summary: Record<Side, { median: number; p99: number; min: number; max: number }>;
  ratios: { onToRg: number | null; offToRg: number | null; onToOff: number | null };
  /** What the first ask answered on each side. */
  answered: Record<Side, { files: number; matches: number; complete: boolean }>;
  mismatches: string[];
  /** Files the cache-on reader keeps after the case. */
  cacheOnFiles: number;
}

/**
 * Each query is asked of every side before the next query; the order turns with each ask,
 * so that neither gitdex side is always the one whose query Elasticsearch has just seen.
 */
async function runCase(c: Case, deps: Record<'off' | 'on', ReaderDeps>): Promise<CaseResult> {
  const samples: Record<Side, number[]> = { off: [], on: [], rg: [] };
  const answered = {} as CaseResult['answered'];
  const mismatches = new Set<string>();
  for (const [i, query] of c.queries.entries()) {
    const answers = {} as Record<Side, Answer>;
    for (let k = 0; k < SIDES.length; k += 1) {
      const side = SIDES[(i + k) % SIDES.length] as Side;
      answers[side] = side === 'rg' ? askRipgrep(c, query) : await askGitdex(deps[side], c, query);
      samples[side].push(answers[side].ms);
    }
    if (i === 0) for (const side of SIDES) answered[side] = { files: answers[side].files, matches: answers[side].matches, complete: answers[side].complete };
    for (const side of ['off', 'on'] as const) {
      const wrong = mismatch(answers[side], answers.rg);
      if (wrong) mismatches.add(`"${query}" (cache ${side}): ${wrong}`);
    }
  }
  const summary = Object.fromEntries(SIDES.map((s) => [s, { median: median(samples[s]), p99: p99(samples[s]), min: Math.min(...samples[s]), max: Math.max(...samples[s]) }])) as CaseResult['summary'];
  return {
    name: c.name,
    label: c.label,
    queries: [...new Set(c.queries)],
    samples,
    summary,
    ratios: { onToRg: ratio(summary.on.median, summary.rg.median), offToRg: ratio(summary.off.median, summary.rg.median), onToOff: ratio(summary.on.median, summary.off.median) },
    answered,
    mismatches: [...mismatches],
    cacheOnFiles: deps.on.searchContents.size,
  };
}

// ---- output ---------------------------------------------------------------------------

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');
const times = (v: number | null) => (v === null ? '-' : `${v.toFixed(2)}x`);

function printCase(r: CaseResult): void {
  console.log(`\n${r.label} (${r.samples.rg.length} samples a side)`);
  const names: Record<Side, string> = { off: 'gitdex, cache off', on: 'gitdex, cache on', rg: 'ripgrep' };
  console.log(`  ${'side'.padEnd(18)} ${'median'.padStart(8)} ${'p99'.padStart(8)} ${'min'.padStart(8)} ${'max'.padStart(8)}   answered (first ask)`);
  for (const side of SIDES) {
    const s = r.summary[side];
    const a = r.answered[side];
    console.log(
      `  ${names[side].padEnd(18)} ${ms(s.median).padStart(8)} ${ms(s.p99).padStart(8)} ${ms(s.min).padStart(8)} ${ms(s.max).padStart(8)}   ${a.files} files, ${a.matches} matches${a.complete ? '' : ', incomplete'}`,
    );
  }
  console.log(`  on/rg ${times(r.ratios.onToRg)}, off/rg ${times(r.ratios.offToRg)}, on/off ${times(r.ratios.onToOff)} (medians); the cache-on reader keeps ${r.cacheOnFiles} files`);
  for (const m of r.mismatches) console.log(`  !!! PATH MISMATCH ${m}`);
}

function printSummary(results: CaseResult[]): void {
  console.log('\nms, median / p99');
  console.log(`${'case'.padEnd(12)} ${'off'.padStart(15)} ${'on'.padStart(15)} ${'rg'.padStart(15)} ${'on/rg'.padStart(7)} ${'off/rg'.padStart(7)} ${'on/off'.padStart(7)}`);
  const cell = (side: CaseResult['summary'][Side]) => `${ms(side.median)} / ${ms(side.p99)}`.padStart(15);
  for (const r of results) {
    console.log(
      `${r.name.padEnd(12)} ${cell(r.summary.off)} ${cell(r.summary.on)} ${cell(r.summary.rg)} ${times(r.ratios.onToRg).padStart(7)} ${times(r.ratios.offToRg).padStart(7)} ${times(r.ratios.onToOff).padStart(7)}`,
    );
  }
}

// ---- main -----------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const since = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  mkdirSync(WORK, { recursive: true });
  const corpus = largeCorpus(options.files, { workDir: join(WORK, 'sources') });
  const commit = corpusCommit(corpus);
  console.log(`corpus: ${corpus.files.length.toLocaleString('en')} files, ${(corpus.bytes / 2 ** 20).toFixed(0)} MB (${corpus.description}) [${since()}]`);

  const checkoutWritten = ensureCheckout(corpus, commit, options.reindex);
  console.log(`checkout ${CHECKOUT}: ${checkoutWritten ? 'written' : 'reused'} [${since()}]`);

  const where = options.backend === 'elasticsearch' ? `index ${PREFIX}-*` : SQLITE_FILE;
  let index = await openIndex(options.backend, false);
  const state = await index.getRefState(REPOSITORY.id, REF);
  const reuse = !options.reindex && state?.status === 'ready' && state.commitSha === commit && state.fileCount === corpus.files.length;
  let indexingMs: number | null = null;
  if (reuse) console.log(`${where}: reused (${REPOSITORY.fullName} ready at the corpus's commit, ${state.fileCount.toLocaleString('en')} files)`);
  else {
    console.log(`${where}: ${options.reindex ? '--reindex' : state ? `holds another corpus (${state.status}, ${state.fileCount} files)` : 'empty'}; indexing`);
    await index.close();
    index = await openIndex(options.backend, true);
    const t = performance.now();
    const written = await indexCorpus(index, corpus, commit);
    indexingMs = performance.now() - t;
    console.log(`indexed ${written.toLocaleString('en')} files in ${(indexingMs / 1000).toFixed(1)} s`);
  }
  console.log(`[${since()}]`);

  const words = pickWords(corpus, commit);
  console.log(`words: selective ${words.selective}, case-insensitive ${words.insensitive.toLowerCase()}, first asks ${words.first.join(' ')} [${since()}]`);

  const deps = {
    off: resolveDeps({ index, limits: { searchCacheBytes: 1 } }),
    on: resolveDeps({ index, limits: { searchCacheBytes: CACHE_ON_BYTES } }),
  };
  // A query no file holds, on every side: the process's code is compiled, Elasticsearch's
  // connection open and the checkout in the page cache before the first timed ask.
  const warm: Case = { name: 'selective', label: 'warm-up', queries: ['qzxNoSuchIdentifierxzq'], regex: false, caseSensitive: true };
  for (let i = 0; i < 2; i += 1) {
    askRipgrep(warm, warm.queries[0] as string);
    for (const d of [deps.off, deps.on]) await askGitdex(d, warm, warm.queries[0] as string);
  }

  const results: CaseResult[] = [];
  for (const c of casesOf(words, options.cases)) {
    const result = await runCase(c, deps);
    printCase(result);
    results.push(result);
  }
  printSummary(results);
  const mismatches = results.flatMap((r) => r.mismatches);
  if (mismatches.length > 0) console.error(`\n!!! ${mismatches.length} PATH MISMATCHES between gitdex and ripgrep (see above)`);
  console.log(`\ndone in ${since()}${indexingMs === null ? ' (index reused)' : `, indexing ${(indexingMs / 1000).toFixed(1)} s`}`);

  if (options.out) {
    const report = {
      startedAt: new Date(Date.now() - (performance.now() - started)).toISOString(),
      corpus: { files: corpus.files.length, bytes: corpus.bytes, description: corpus.description, commit },
      index: { backend: options.backend, where: options.backend === 'elasticsearch' ? `${ELASTICSEARCH_URL} ${PREFIX}-*` : SQLITE_FILE, reused: reuse, indexingMs },
      checkout: { dir: CHECKOUT, reused: !checkoutWritten },
      cacheOnBytes: CACHE_ON_BYTES,
      page: PAGE,
      words,
      cases: results,
      mismatches,
      totalMs: performance.now() - started,
    };
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`wrote ${options.out}`);
  }
  await index.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
