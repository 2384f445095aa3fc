/**
 * What find_references pays when asked, now that the index stores definitions only: for a sample
 * of defined names, the files that hold the name as a whole word (what the content index and the
 * reader's word test leave) parsed through @gitdex/symbols' pool for that name's occurrences, as
 * services/reader/src/symbols/reference-scan.ts does, cold (a new pool's first call per name) and
 * again (the same pool: the grammars loaded). Index round trips are not included: they are
 * search_code's.
 *
 *   node scripts/prepare.mjs --build -- tsx --tsconfig bench/tsconfig.json bench/measure/references-at-query.ts [names]
 */
import { readFileSync } from 'node:fs';
import { createSymbolExtractor, extractSymbols, SUPPORTED_LANGUAGES } from '@gitdex/symbols';
import { buildDocument, gitBlobSha } from '@gitdex/indexer';
import { mediumCorpus, MAX_FILE_BYTES } from '../data/corpora';

const NAMES = Number(process.argv[2] ?? 50);
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;
const word = (name: string) => new RegExp(`(?<![\\p{L}\\p{N}_])${name.replace(/\$/g, '\\$')}(?![\\p{L}\\p{N}_])`, 'u');

async function main(): Promise<void> {
  const corpus = mediumCorpus();
  const context = { repositoryId: 1, ref: 'refs/heads/main', commitSha: 'c'.repeat(40), generation: 1, maxFileBytes: MAX_FILE_BYTES };
  const files = corpus.files
    .map((file) => {
      const content = readFileSync(file.abs);
      return buildDocument({ path: file.path, mode: '100644', blobSha: gitBlobSha(content), size: content.length, content }, context);
    })
    .filter((doc): doc is typeof doc & { content: string; language: string } => typeof doc.content === 'string' && doc.language !== null && SUPPORTED_LANGUAGES.includes(doc.language));
  const defined = new Set<string>();
  for (const doc of files)
    for (const d of (await extractSymbols(doc.content, doc.path, doc.language, undefined, 'none')).definitions) if (/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(d.name)) defined.add(d.name);
  const sorted = [...defined].sort();
  const step = Math.max(1, Math.floor(sorted.length / NAMES));
  const names = sorted.filter((_, i) => i % step === 0).slice(0, NAMES);
  console.log(`corpus: ${corpus.description}: ${files.length} files in a parsed language; ${names.length} of ${sorted.length} defined names`);

  const pool = createSymbolExtractor();
  const cold: number[] = [];
  const warm: number[] = [];
  const parsed: number[] = [];
  let occurrences = 0;
  try {
    for (const [label, out] of [
      ['first', cold],
      ['again', warm],
    ] as const) {
      for (const name of names) {
        const started = performance.now();
        const test = word(name);
        const candidates = files.filter((doc) => test.test(doc.content));
        const answers = await Promise.all(candidates.map((doc) => pool.extract(doc.content, doc.path, doc.language, { name })));
        out.push(performance.now() - started);
        if (label === 'first') {
          parsed.push(candidates.length);
          occurrences += answers.reduce((sum, a) => sum + a.occurrences.length, 0);
        }
      }
    }
  } finally {
    await pool.close();
  }
  const line = (label: string, values: number[], unit: string) =>
    `${label}: p50 ${percentile(values, 0.5).toFixed(0)}${unit}, p90 ${percentile(values, 0.9).toFixed(0)}${unit}, max ${Math.max(...values).toFixed(0)}${unit}`;
  console.log(line('files parsed a name', parsed, ''));
  console.log(`occurrences found: ${occurrences}`);
  console.log(line('wall time a name, first pass (pool started, grammars loading on the first)', cold, ' ms'));
  console.log(line('wall time a name, second pass (no cache: parsed again)', warm, ' ms'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
