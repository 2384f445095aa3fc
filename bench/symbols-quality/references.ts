/**
 * Occurrences against `git grep -w`: for a sample of names defined in a set, every line where
 * extraction finds the name must be a line a whole-word grep finds, and the grep lines it leaves
 * out are printed as a sample to be read (they should be comments and strings). Names are found as
 * the index keeps them (definitions only); each name's occurrences as find_references finds them:
 * the files holding the word, parsed for that name.
 * Run: npx tsx --tsconfig bench/tsconfig.json bench/symbols-quality/references.ts [--limit=N] [--names=N] [--sample=N]
 */
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, extractSymbols } from '@gitdex/symbols';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { filesOf, qualitySets } from './corpora';

/** What `git grep -w NAME` matches on a line: the name with no word character on either side. */
const wordLine = (name: string) => new RegExp(`(?<![A-Za-z0-9_])${name.replace(/[$.*+?^(){}[\]|\\]/g, '\\$&')}(?![A-Za-z0-9_])`);

const LIMITS = { maxBytes: DEFAULT_MAX_BYTES, timeoutMs: DEFAULT_TIMEOUT_MS };

async function main() {
  const { values } = parseArgs({ options: { limit: { type: 'string', default: '150' }, names: { type: 'string', default: '60' }, sample: { type: 'string', default: '12' } } });
  const rows = ['| set | names | files | grep -w lines | our lines | ours not in grep | grep lines we leave out |', '| --- | --- | --- | --- | --- | --- | --- |'];
  const samples: string[] = [];
  for (const set of qualitySets(mkdtempSync(join(tmpdir(), 'symbols-references-')))) {
    if (set.role !== 'held-out') continue;
    const files = filesOf(set, Number(values.limit));
    const parsed = await Promise.all(
      files.map(async (f) => {
        const content = readFileSync(join(set.root, f), 'utf8');
        return { path: f, content, definitions: (await extractSymbols(content, f, set.language, LIMITS, 'none')).definitions };
      }),
    );
    const defined = [...new Set(parsed.flatMap((p) => p.definitions.map((d) => d.name)))].filter((n) => /^[A-Za-z_]\w*$/.test(n)).sort();
    const step = Math.max(1, Math.floor(defined.length / Number(values.names)));
    const names = defined.filter((_, i) => i % step === 0).slice(0, Number(values.names));
    let grepLines = 0;
    let ourLines = 0;
    let oursNotGrep = 0;
    const leftOut: string[] = [];
    for (const name of names) {
      const word = wordLine(name);
      for (const p of parsed) {
        const lines = p.content.split('\n');
        const grep = new Set(lines.flatMap((line, i) => (word.test(line) ? [i + 1] : [])));
        if (grep.size === 0) continue;
        const found = await extractSymbols(p.content, p.path, set.language, LIMITS, { name });
        const ours = new Set(found.occurrences.map((o) => o.line));
        grepLines += grep.size;
        ourLines += ours.size;
        for (const line of ours) if (!grep.has(line)) oursNotGrep++;
        for (const line of grep) if (!ours.has(line)) leftOut.push(`${set.language} ${p.path}:${line} [${name}] ${lines[line - 1]!.trim().slice(0, 140)}`);
      }
    }
    rows.push(`| ${set.name} | ${names.length} | ${files.length} | ${grepLines} | ${ourLines} | ${oursNotGrep} | ${leftOut.length} |`);
    const every = Math.max(1, Math.floor(leftOut.length / Number(values.sample)));
    samples.push(...leftOut.filter((_, i) => i % every === 0).slice(0, Number(values.sample)));
  }
  process.stdout.write(`${rows.join('\n')}\n\nA sample of the grep lines left out:\n\n${samples.map((s) => `- ${s}`).join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
