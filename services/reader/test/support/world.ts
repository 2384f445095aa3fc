import type { GitdexEvent } from '@gitdex/contracts';
import type { EventHeaders, EventPublisher, IndexStore } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { resolveDeps, type ReaderDeps, type ReaderOptions } from '../../src/deps';
import { commitSha, repositoryDocument, seedRepository, type FileSpec } from './documents';

/** The index the reader's tests run on: the real SQLite adapter on a throw-away `:memory:` database. */
export type IndexKind = 'sqlite';

export async function createIndex(_kind: IndexKind = 'sqlite'): Promise<IndexStore> {
  const index = new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  return index;
}

/** Records what the reader publishes (backfill requests). */
export class RecordingPublisher implements EventPublisher {
  readonly events: GitdexEvent[] = [];
  failing = false;
  async publish(events: { event: GitdexEvent; headers?: EventHeaders }[]): Promise<void> {
    if (this.failing) throw new Error('broker down (test)');
    this.events.push(...events.map((e) => e.event));
  }
  async ping(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {}
}

export const LONG_LINE = 'x'.repeat(50_000);
export const SUBMODULE_COMMIT = commitSha('shared-lib@7');

export function numbered(count: number, prefix = 'line'): string {
  return Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).join('\n') + '\n';
}

export const API_FILES: Record<string, FileSpec> = {
  'README.md': '# API\n\nThe API service.\n\n## Usage\n\nRun it.\n',
  'src/index.ts': "import { start } from './server/http-server';\n\nstart();\n",
  'src/server/http-server.ts': numbered(120, '// server'),
  'src/server/routes.ts': 'export const routes = [];\n',
  'src/utils/helpers.ts': 'export function help() {}\n',
  'src/utils/format.ts': 'export const format = (s: string) => s;\n',
  'docs/guide.md': '# Guide\n',
  'docs/api/endpoints.md': '# Endpoints\n',
  'assets/logo.png': { content: null, size: 20_480, flags: { binary: true }, language: null, category: 'other' },
  'data/big.json': { content: null, size: 5_000_000, flags: { tooLarge: true } },
  'vendor/lib.js': { content: 'var vendored = true;\n', flags: { vendored: true } },
  'dist/bundle.min.js': { content: `${LONG_LINE}\nsecond();\n`, flags: { generated: true } },
  'link-to-readme': { kind: 'symlink', content: 'README.md', target: 'README.md', language: null },
  'modules/shared': { kind: 'submodule', content: null, target: SUBMODULE_COMMIT, language: null, size: 0 },
  'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
  'empty.txt': '',
  'long.txt': numbered(1000),
  'quotes.json': `${'"\\"'.repeat(2000)}\n`.repeat(10),
  'unicode/naïve café.md': 'Grüße 😀\n',
};

export interface World {
  index: IndexStore;
  publisher: RecordingPublisher;
  deps: ReaderDeps;
}

/**
 * Repositories for the tool tests: octo/api (public, rich), octo/web (public), octo/secret
 * (private), octo/pending (known, first index running), octo/broken (known, first index failed).
 */
export async function createWorld(kind: IndexKind = 'sqlite', options: Partial<ReaderOptions> = {}): Promise<World> {
  const index = await createIndex(kind);
  const publisher = new RecordingPublisher();
  await seedRepository(index, { id: 1, fullName: 'octo/api', files: API_FILES });
  await seedRepository(index, { id: 3, fullName: 'octo/web', files: { 'src/index.ts': 'web\n', 'src/only-in-web.ts': 'web only\n', 'README.md': '# Web\n' } });
  await seedRepository(index, { id: 2, fullName: 'octo/secret', private: true, files: { 'src/index.ts': 'secret\n', 'src/only-in-web.ts': 'also here\n', 'secret-plans.md': '# Plans\n' } });
  await index.putRepository(repositoryDocument({ id: 4, fullName: 'octo/pending' }));
  await index.putRefState({
    repositoryId: 4,
    ref: 'refs/heads/main',
    commitSha: null,
    treeSha: null,
    generation: 0,
    indexedAt: null,
    committedAt: null,
    fileCount: 0,
    status: 'indexing',
    lastError: null,
    attempts: 0,
    pendingCommitSha: commitSha('pending@1'),
    pendingSince: '2025-01-02T00:00:00.000Z',
    sourceReceivedAt: null,
  });
  await index.putRepository(repositoryDocument({ id: 5, fullName: 'octo/broken' }));
  await index.putRefState({
    repositoryId: 5,
    ref: 'refs/heads/main',
    commitSha: null,
    treeSha: null,
    generation: 0,
    indexedAt: null,
    committedAt: null,
    fileCount: 0,
    status: 'failed',
    // Raw, as the indexer records it: readers must see a cleaned code and message (issue 17, item 9).
    lastError: 'GitHub answered 404 for the tarball: GET https://ghe.internal.corp:8443/api/v3/repos/octo/broken/tarball\n    at GitHubSource.tarball (/app/libs/github/dist/github-source.js:95:11)',
    attempts: 3,
    pendingCommitSha: null,
    pendingSince: null,
    sourceReceivedAt: null,
  });
  await index.putRepository(repositoryDocument({ id: 6, fullName: 'octo/fresh' }));
  const deps = resolveDeps({ index, publisher, now: () => new Date('2025-02-01T00:00:00.000Z'), ...options });
  return { index, publisher, deps };
}
