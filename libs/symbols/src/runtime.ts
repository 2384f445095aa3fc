import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Language, Parser, Query } from 'web-tree-sitter';
import { definitionPatterns, splitPatterns } from './definition-query';
import type { Grammar } from './grammars';
import { packageDir } from './packages';

/** A grammar ready to parse: its language and its compiled tags query (the packaged definition patterns + ours). */
export interface LoadedGrammar {
  readonly grammar: Grammar;
  readonly language: Language;
  readonly query: Query;
  /** Patterns at or after this index come from our own queries, which decide over packaged ones. */
  readonly ownFrom: number;
}

let init: Promise<void> | undefined;
const loaded = new Map<string, Promise<LoadedGrammar>>();

/** Loads a grammar once per thread (the wasm runtime, then each language on first use). */
export function loadGrammar(grammar: Grammar): Promise<LoadedGrammar> {
  let pending = loaded.get(grammar.id);
  if (!pending) {
    pending = load(grammar);
    loaded.set(grammar.id, pending);
    // A failed load (a missing package) is retried on the next blob rather than cached forever.
    pending.catch(() => loaded.delete(grammar.id));
  }
  return pending;
}

async function load(grammar: Grammar): Promise<LoadedGrammar> {
  // Bytes, not paths: web-tree-sitter reads a path through a dynamic import of node:fs, which
  // some hosts (jest's module sandbox) refuse.
  init ??= Parser.init({ wasmBinary: readFileSync(require.resolve('web-tree-sitter/web-tree-sitter.wasm')) });
  await init;
  const [pkg, file] = grammar.wasm;
  const language = await Language.load(readFileSync(join(packageDir(pkg), file)));
  const packaged = definitionPatterns(grammar.tags.map((tagsPkg) => readFileSync(join(packageDir(tagsPkg), 'queries', 'tags.scm'), 'utf8')).join('\n'));
  // Counted from the source rather than by compiling the packaged patterns alone: a compile of
  // TypeScript's query costs tens of milliseconds of every worker's first blob.
  const ownFrom = splitPatterns(packaged).length;
  const query = new Query(language, `${packaged}\n${grammar.own}`);
  return { grammar, language, query, ownFrom };
}

/** One parser per thread, reused across blobs (a parser holds no state between parses). */
let parser: Parser | undefined;
export function sharedParser(): Parser {
  parser ??= new Parser();
  return parser;
}
