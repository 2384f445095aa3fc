// find_symbol, file_outline and find_references on both index adapters with the same answers,
// through the tool path (toolRunner) and through the official Python MCP SDK over HTTP, which
// checks every structured answer against the output schema tools/list advertised. Symbols are
// seeded as extraction hands them to storage, on a default branch and a pull request.
import { execFile, spawnSync } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FileOutlineOutput, FindReferencesOutput, FindSymbolOutput } from '@gitdex/contracts';
import type { IndexStore } from '@gitdex/ports';
import { createReaderApp, resolveDeps, type ReaderDeps } from '@gitdex/reader';
import { seedRepository } from '../../services/reader/test/support/documents';
import { code, def, occurrencesIn, SYMBOL_FILES } from '../../services/reader/test/support/symbol-files';
import { indexBackends, toolRunner } from '../support/tool-backends';

jest.setTimeout(180_000);

const REPO = 'acme/sym';
const ID = 61;
const SCRIPT = join(__dirname, '..', 'python', 'symbol_tools.py');
const HIDDEN_ID = 62;
const HIDDEN_TS = 'export class IndexStor {}\nexport function SecretThing() {}\n';
const ADDED_TS = "import { IndexStore } from './store';\n\nexport function compact(store: IndexStore): void {}\n";

async function seed(index: IndexStore): Promise<void> {
  await index.ensureReady();
  await seedRepository(index, { id: ID, fullName: REPO, files: SYMBOL_FILES });
  // A pull request head that adds a function: findable at pull/5 only.
  await seedRepository(index, {
    id: ID,
    fullName: REPO,
    ref: 'refs/pull/5/head',
    commitLabel: 'pull 5',
    files: {
      ...SYMBOL_FILES,
      'src/compact.ts': code(
        ADDED_TS,
        [def('compact', 'function', 3, 3)],
        occurrencesIn(ADDED_TS, 'IndexStore', (l) => (l === 1 ? 'import' : 'reference')),
      ),
    },
  });
  // A private repository no anonymous caller may read, defining names near the public ones.
  await seedRepository(index, {
    id: HIDDEN_ID,
    fullName: 'acme/hidden',
    private: true,
    files: { 'lib/hidden.ts': code(HIDDEN_TS, [def('IndexStor', 'class', 1, 1), def('SecretThing', 'function', 2, 2)], []) },
  });
  await (index as IndexStore & { refresh?: () => Promise<void> }).refresh?.();
}

/** The official Python MCP SDK, installed with pip when it is not there yet. */
function ensurePythonSdk(): void {
  if (spawnSync('python3', ['-c', 'import mcp']).status === 0) return;
  const install = spawnSync('python3', ['-m', 'pip', 'install', '--quiet', 'mcp'], { encoding: 'utf8' });
  if (spawnSync('python3', ['-c', 'import mcp']).status !== 0) throw new Error(`the Python MCP SDK could not be installed (pip install mcp): ${install.stderr}`);
}

interface PythonReport {
  tools: Record<string, { required: string[]; has_output_schema: boolean }>;
  results: { tool: string; structured?: Record<string, unknown>; error?: string }[];
}

function runPython(url: string, calls: [string, Record<string, unknown>][]): Promise<PythonReport> {
  return new Promise((resolve, reject) => {
    execFile('python3', [SCRIPT, url, JSON.stringify(calls)], { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`python client failed: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout) as PythonReport);
    });
  });
}

const where = (s: { repository: string; path: string; line: number }) => `${s.repository} ${s.path}:${s.line}`;

describe.each(indexBackends('symtools'))('symbol tools on %s', (backend, make) => {
  let index: IndexStore;
  let deps: ReaderDeps;
  let server: Server;
  beforeAll(async () => {
    index = make();
    await seed(index);
    deps = resolveDeps({ index });
    const app = createReaderApp(deps);
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await index?.close();
  });
  const run = toolRunner(() => deps);

  test('find_symbol: ranked definitions, container names, patterns, did-you-mean, and a pull request head', async () => {
    const found = (await run('find_symbol', { name: 'IndexStore' })).structured as FindSymbolOutput;
    expect(found.symbols.map(where)).toEqual(['acme/sym src/store.ts:3', 'acme/sym test/store.test.ts:3']);
    expect(found.symbols[0]).toMatchObject({ kind: 'class', line: 3, end_line: 12, language: 'TypeScript' });
    const member = (await run('find_symbol', { name: 'IndexStore.open', repository: REPO })).structured as FindSymbolOutput;
    expect(member.symbols.map((s) => [s.container, s.name, s.line])).toEqual([['IndexStore', 'open', 9]]);
    const pattern = (await run('find_symbol', { name: '*Generation', repository: REPO })).structured as FindSymbolOutput;
    expect(pattern.symbols.map((s) => s.name)).toEqual(['flipGeneration']);
    expect(((await run('find_symbol', { name: 'IndexStor' })).structured as FindSymbolOutput).did_you_mean).toContain('IndexStore');
    // Near names come only from repositories the caller may read, whichever step of the index finds them.
    expect(((await run('find_symbol', { name: 'IndexStor' })).structured as FindSymbolOutput).total).toBe(0);
    expect(((await run('find_symbol', { name: 'SecretThin' })).structured as FindSymbolOutput).did_you_mean).not.toContain('SecretThing');
    const near = ((await run('find_symbol', { name: 'IndexStoree' })).structured as FindSymbolOutput).did_you_mean;
    expect(near[0]).toBe('IndexStore');
    expect(near).not.toContain('IndexStor');
    expect(((await run('find_symbol', { name: 'compact', repository: REPO })).structured as FindSymbolOutput).total).toBe(0);
    const pulled = (await run('find_symbol', { name: 'compact', repository: REPO, ref: 'pull/5' })).structured as FindSymbolOutput;
    expect(pulled.symbols.map((s) => [s.ref, s.path, s.line])).toEqual([['refs/pull/5/head', 'src/compact.ts', 3]]);
  });

  test('file_outline nests; find_references groups by file with roles and the definitions', async () => {
    const outline = (await run('file_outline', { repository: REPO, path: 'src/store.ts' })).structured as FileOutlineOutput;
    expect(outline.symbols.map((n) => [n.name, n.children.map((c) => c.name)])).toEqual([
      ['IndexStore', ['flipGeneration', 'open']],
      ['label', []],
    ]);
    const references = (await run('find_references', { name: 'IndexStore', repository: REPO, ref: 'pull/5' })).structured as FindReferencesOutput;
    expect(references.definitions.map(where)).toEqual(['acme/sym src/store.ts:3', 'acme/sym test/store.test.ts:3']);
    expect(references.files.map((f) => [f.path, f.matches.map((m) => `${m.line}:${m.roles.join(',')}`)])).toEqual([
      ['src/store.ts', ['3:definition', '9:reference', '10:reference']],
      ['test/store.test.ts', ['1:import', '3:definition', '4:reference']],
      ['src/compact.ts', ['1:import', '3:reference']],
      ['src/app/use.ts', ['1:import', '4:reference']],
    ]);
  });

  // The schemas are the same on both backends: one Python run (about 12 s, most of it the SDK's session teardown) covers them.
  if (backend !== 'Elasticsearch') return;
  test('the Python MCP SDK lists the three tools and accepts each answer against its output schema', async () => {
    ensurePythonSdk();
    const { port } = server.address() as AddressInfo;
    const report = await runPython(`http://127.0.0.1:${port}/mcp`, [
      ['find_symbol', { name: 'IndexStore' }],
      ['find_symbol', { name: 'flipGeneraton' }],
      ['file_outline', { repository: REPO, path: 'src/store.ts' }],
      ['file_outline', { repository: REPO, path: 'README.md' }],
      ['find_references', { name: 'flipGeneration', repository: REPO, limit: 1 }],
    ]);
    expect(report.tools).toMatchObject({
      find_symbol: { required: ['name'], has_output_schema: true },
      file_outline: { required: ['repository', 'path'], has_output_schema: true },
      find_references: { required: ['name'], has_output_schema: true },
    });
    expect(report.results.map((r) => [r.tool, r.error ?? 'ok'])).toEqual([
      ['find_symbol', 'ok'],
      ['find_symbol', 'ok'],
      ['file_outline', 'ok'],
      ['file_outline', 'ok'],
      ['find_references', 'ok'],
    ]);
    expect((report.results[2]!.structured as FileOutlineOutput).symbols[0]!.children).toHaveLength(2);
    expect((report.results[4]!.structured as FindReferencesOutput).next_cursor).not.toBeNull();
  });
});
