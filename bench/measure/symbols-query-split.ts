/**
 * Per grammar, the parse beside the tags query: the packaged tags with ours (as before) and the
 * packaged definition patterns with ours (as extraction compiles them now), each timed over the
 * same tree, one parse a file, over the corpus of symbols-cpu-ab.ts.
 *
 *   npx tsx --tsconfig bench/tsconfig.json bench/measure/symbols-query-split.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Language, Parser, Query } from 'web-tree-sitter';
import { grammarFor } from '../../libs/symbols/src/grammars';
import { packageDir } from '../../libs/symbols/src/packages';
import { definitionPatterns } from '../../libs/symbols/src/definition-query';
import { corpusFiles } from './symbols-corpus';

async function main() {
  await Parser.init({ wasmBinary: readFileSync(require.resolve('web-tree-sitter/web-tree-sitter.wasm')) });
  const files = corpusFiles().filter((f) => f.content.length < 1e6);
  const parser = new Parser();
  const stats = new Map<string, { parse: number; full: number; defs: number; n: number; mFull: number; mDefs: number }>();
  const cache = new Map<string, { language: Language; full: Query; defs: Query }>();
  for (const f of files) {
    const g = grammarFor(f.language, f.path)!;
    let l = cache.get(g.id);
    if (!l) {
      const language = await Language.load(readFileSync(join(packageDir(g.wasm[0]), g.wasm[1])));
      const packaged = g.tags.map((t) => readFileSync(join(packageDir(t), 'queries', 'tags.scm'), 'utf8')).join('\n');
      l = { language, full: new Query(language, `${packaged}\n${g.own}`), defs: new Query(language, `${definitionPatterns(packaged)}\n${g.own}`) };
      cache.set(g.id, l);
    }
    parser.setLanguage(l.language);
    let t = performance.now();
    const tree = parser.parse(f.content)!;
    const parse = performance.now() - t;
    t = performance.now();
    const m1 = l.full.matches(tree.rootNode).length;
    const full = performance.now() - t;
    t = performance.now();
    const m2 = l.defs.matches(tree.rootNode).length;
    const defs = performance.now() - t;
    tree.delete();
    const s = stats.get(g.id) ?? { parse: 0, full: 0, defs: 0, n: 0, mFull: 0, mDefs: 0 };
    s.parse += parse;
    s.full += full;
    s.defs += defs;
    s.n++;
    s.mFull += m1;
    s.mDefs += m2;
    stats.set(g.id, s);
  }
  for (const [id, s] of stats)
    console.log(
      `${id.padEnd(11)} files ${String(s.n).padStart(4)} parse ${s.parse.toFixed(0).padStart(6)} ms  query full ${s.full.toFixed(0).padStart(5)} ms (${s.mFull} matches)  defs-only ${s.defs.toFixed(0).padStart(5)} ms (${s.mDefs} matches)`,
    );
}
void main();
