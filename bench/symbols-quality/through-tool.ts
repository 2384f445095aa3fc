/**
 * find_symbol's held-out quality through the real tool: each held-out set of corpora.ts is
 * extracted with the real extractor, indexed as one repository of a SQLite index (flags from the
 * indexer's own path rules), and every ctags definition is asked for through the MCP client,
 * as an agent would ask it (`Type.name` when ctags's scope is a type, else the name), with the
 * tool's ranking, limits and paging. A definition counts when an answer of the same path holds
 * ctags's line among the first 5; a name ctags defines once in the set must come first.
 * Held-out sets are measured, never read for fixes (docs/design/symbols.md).
 *
 *   npx tsx --tsconfig bench/tsconfig.json bench/symbols-quality/through-tool.ts [--limit=300] [--role=held-out|tuning|all] [--language=L] [--examples=N]
 *
 * --role=tuning (or all) measures the tuning sets, and --examples prints their misses (never a
 * held-out set's: reading those would make it a tuning set).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Registry } from 'prom-client';
import type { FindSymbolOutput } from '@gitdex/contracts';
import { classifyPath } from '@gitdex/indexer';
import type { FileWrite } from '@gitdex/ports';
import { createReaderApp } from '@gitdex/reader';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { extractSymbols, operatorName } from '@gitdex/symbols';
import { commitSha, fileDocument, readyState, repositoryDocument } from '../../services/reader/test/support/documents';
import { typeScope } from './compare';
import { filesOf, qualitySets } from './corpora';
import { runCtags, type CtagsTag } from './ctags';

const REF = 'refs/heads/main';

interface Figures {
  language: string;
  set: string;
  role: 'tuning' | 'held-out';
  files: number;
  asked: number;
  top5: number;
  unique: number;
  uniqueFirst: number;
  /** Queries the tool refused (a name it cannot take, e.g. an operator with `*`). */
  refused: number;
  /**
   * The most any ranking could place in the first 5: a query ctags defines n times holds at most
   * min(n, 5) of them (overloads, one name in many files).
   */
  ceiling: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { limit: { type: 'string', default: '300' }, role: { type: 'string', default: 'held-out' }, language: { type: 'string' }, examples: { type: 'string', default: '0' } },
  });
  const limit = Number(values.limit);
  let examples = Number(values.examples);
  const work = mkdtempSync(join(tmpdir(), 'symbols-through-tool-'));
  try {
    const sets = qualitySets(work).filter((s) => (values.role === 'all' || s.role === values.role) && (values.language === undefined || s.language === values.language));
    const index = new SqliteIndexStore({ file: join(work, 'index.sqlite') });
    await index.ensureReady();
    const commit = commitSha('held-out@1');
    const plan: { set: (typeof sets)[number]; repository: string; files: string[]; tags: CtagsTag[] }[] = [];
    for (const [i, set] of sets.entries()) {
      const repository = `heldout/set-${i + 1}`;
      const files = filesOf(set, limit);
      await index.putRepository(repositoryDocument({ id: i + 1, fullName: repository }));
      const writes: FileWrite[] = [];
      for (const path of files) {
        const content = readFileSync(join(set.root, path), 'utf8');
        const symbols = await extractSymbols(content, path, set.language);
        const flags = classifyPath(path);
        writes.push({ type: 'put', document: fileDocument({ repositoryId: i + 1, ref: REF, path, spec: { content, language: set.language, flags, symbols }, commit, generation: 1 }) });
      }
      await index.writeFiles(writes);
      await index.putRefState(readyState(i + 1, REF, commit, 1, files.length));
      plan.push({ set, repository, files, tags: runCtags(set.root, files).tags });
      process.stderr.write(`${set.language}: ${set.name}: ${files.length} files indexed\n`);
    }

    const app = createReaderApp({ index }, { registry: new Registry() });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const client = new Client({ name: 'quality', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)));

    // Operators spelled as the extractor names them (ctags writes `operator =`, the outline `operator=`).
    const bare = (t: CtagsTag) => (/^operator\b/.test(t.name) ? operatorName(t.name) : t.name);
    const measures: { title: string; queryOf: (t: CtagsTag) => string }[] = [
      {
        title: "By name (`Type.name` when ctags's scope is a type, else the bare name)",
        queryOf: (t) => {
          const scope = typeScope(t);
          return scope ? `${scope}.${bare(t)}` : bare(t);
        },
      },
      {
        title: 'By scope (`Scope.name` whenever ctags gives a scope the tool holds as a container, else the bare name)',
        queryOf: (t) => {
          const scope = toolScope(t);
          return scope ? `${scope}.${bare(t)}` : bare(t);
        },
      },
    ];
    const answers = new Map<string, FindSymbolOutput | null>();
    const ask = async (repository: string, query: string) => {
      const key = `${repository}\u0000${query}`;
      if (!answers.has(key)) {
        const result = await client.callTool({ name: 'find_symbol', arguments: { name: query, repository, limit: 5 } });
        answers.set(key, result.isError ? null : (result.structuredContent as FindSymbolOutput));
      }
      return answers.get(key);
    };
    const tables: string[] = [];
    for (const measure of measures) {
      const results: Figures[] = [];
      for (const { set, repository, files, tags } of plan) {
        const counts = new Map<string, number>();
        for (const t of tags) counts.set(measure.queryOf(t), (counts.get(measure.queryOf(t)) ?? 0) + 1);
        let ceiling = 0;
        for (const n of counts.values()) ceiling += Math.min(n, 5);
        const figures: Figures = { language: set.language, set: set.name, role: set.role, files: files.length, asked: 0, top5: 0, unique: 0, uniqueFirst: 0, refused: 0, ceiling };
        for (const t of tags) {
          const query = measure.queryOf(t);
          const answer = await ask(repository, query);
          figures.asked += 1;
          if (!answer) {
            figures.refused += 1;
            continue;
          }
          const hit = (s: FindSymbolOutput['symbols'][number]) => s.path === t.path && s.line <= t.line && t.line <= s.end_line;
          if (answer.symbols.slice(0, 5).some(hit)) figures.top5 += 1;
          else if (set.role === 'tuning' && examples > 0 && (counts.get(query) ?? 0) <= 5) {
            examples -= 1;
            process.stderr.write(`  missed ${query} ${t.path}:${t.line} (${t.kind}); answered ${answer.symbols.map((s) => `${s.path}:${s.line}-${s.end_line}`).join(', ') || 'nothing'}\n`);
          }
          if (counts.get(query) === 1) {
            figures.unique += 1;
            if (answer.symbols[0] && hit(answer.symbols[0])) figures.uniqueFirst += 1;
          }
        }
        results.push(figures);
      }
      tables.push(`${measure.title}\n\n${tableOf(results)}`);
    }
    process.stdout.write(`${tables.join('\n\n')}\n`);
    await client.close();
    server.close();
    await index.close();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * ctags's scope as the tool's `Container.name` container, or null when nothing of it is one: its
 * separators (`::`, `\\`, `.`) read as `.`, anonymous namespaces (ctags's `__anon…`, which no agent
 * can write) left out, and so is what ctags puts in a scope that no outline holds as a container:
 * a Go package (`http.Client` is the type `Client`) and a PHP namespace (`google\\appengine\\Foo`
 * is the class `Foo`; PHP has no nested classes). C++ namespaces stay: they are containers.
 */
function toolScope(t: CtagsTag): string | null {
  if (!t.scope || t.scopeKind === 'package' || (t.language === 'PHP' && t.scopeKind === 'namespace')) return null;
  let parts = t.scope.split(/::|\\|#|\./).filter((part) => part !== '' && !part.startsWith('__anon'));
  if (t.language === 'Go') parts = parts.slice(1);
  if (t.language === 'PHP') parts = parts.slice(-1);
  return parts.length > 0 ? parts.join('.') : null;
}

function tableOf(results: readonly Figures[]): string {
  const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)} %`);
  const total = (label: string, rows: readonly Figures[]) => {
    const sum = (f: (r: Figures) => number) => rows.reduce((n, r) => n + f(r), 0);
    return `| ${label} | | ${sum((r) => r.files)} | ${sum((r) => r.asked)} | ${pct(
      sum((r) => r.top5),
      sum((r) => r.asked),
    )} | ${pct(
      sum((r) => r.ceiling),
      sum((r) => r.asked),
    )} | ${pct(
      sum((r) => r.uniqueFirst),
      sum((r) => r.unique),
    )} (${sum((r) => r.unique)}) | ${sum((r) => r.refused)} |`;
  };
  const heldOut = results.filter((r) => r.role === 'held-out');
  const tuning = results.filter((r) => r.role === 'tuning');
  return [
    '| language | set | files | ctags definitions asked | in the first 5 | at most possible in the first 5 | names defined once: first | refused |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...results.map(
      (r) => `| ${r.language} | ${r.set} | ${r.files} | ${r.asked} | ${pct(r.top5, r.asked)} | ${pct(r.ceiling, r.asked)} | ${pct(r.uniqueFirst, r.unique)} (${r.unique}) | ${r.refused} |`,
    ),
    ...(tuning.length > 0 ? [total('all tuning', tuning)] : []),
    ...(heldOut.length > 0 ? [total('all held out', heldOut)] : []),
  ].join('\n');
}

void main();
