import { heldKey } from '@gitdex/diff';
import type { RefState } from '@gitdex/contracts';
import type { HistoryStore, IndexStore } from '@gitdex/ports';
import { SqliteHistory, SqliteIndexStore } from '@gitdex/sqlite';
import type { Principal } from '../../src/deps';
import { repositoryDocument, seedRepository } from '../support/documents';
import { RecordingPublisher } from '../support/world';
import { personPrincipal } from '../../src/people';

/**
 * The world of the security suites: two public repositories and two private ones whose
 * files hold canaries. The private ones share paths with the public ones (so "other
 * repositories have this path" hints have something to leak), one shares an owner with a
 * public repository (so owner patterns are tested), and a third private one is known but
 * not indexed (so a backfill would be queued if it were treated as readable).
 */
export const PUBLIC = ['acme/tools', 'octo/web'] as const;
export const ACME_PRIVATE = 'acme/internal-x9';
export const VAULT = 'hidden-org/vault-q7';
export const UNINDEXED_PRIVATE = 'hidden-org/pending-q7';
export const PRIVATE = [ACME_PRIVATE, VAULT, UNINDEXED_PRIVATE] as const;

/** Text that exists only in private files: no answer to a caller who may not read them may hold it. */
export const CANARY = {
  acme: 'CANARY-acme-6f1d2c9e',
  vault: 'CANARY-vault-93b7aa01',
} as const;

/** Names and paths that exist only in each private repository (the owner hidden-org too: it has no public repository). */
export const PRIVATE_MARKERS: Record<string, { content?: string; names: string[] }> = {
  'acme/internal-x9': { content: 'CANARY-acme-6f1d2c9e', names: ['acme-only-k3', 'internal-x9'] },
  'hidden-org/vault-q7': { content: 'CANARY-vault-93b7aa01', names: ['vault-only-z8', 'plan-zz9', 'vault-q7'] },
  'hidden-org/pending-q7': { names: ['pending-q7'] },
};

export const PUBLIC_FILES: Record<string, string> = {
  'README.md': '# Tools\n\nPublic tools.\n',
  'src/index.ts': "export * from './server/http';\n",
  'src/server/http.ts': Array.from({ length: 50 }, (_, i) => `// http ${i + 1}`).join('\n') + '\n',
  'src/utils/format.ts': 'export const format = (s: string) => s;\n',
  'docs/guide.md': '# Guide\n',
  'docs/deep/a/b/c/d/e/f/g/h/i/j/k/leaf.md': '# Leaf\n',
  'unicode/café.md': 'NFC name\n',
  'unicode/cafe\u0301.md': 'NFD name\n',
  'dots/..hidden': 'two dots\n',
  'dots/...': 'three dots\n',
  'space name/file with spaces.txt': 'spaces\n',
  'percent/%2e%2e.txt': 'a percent-encoded name, literally\n',
  'back\\slash.txt': 'a backslash in a name\n',
};

/** Published sites (GITDEX_PUBLISHED_SITES) of a public, a private and an unindexed private repository. */
export const PUBLISHED_SITES = [
  'https://docs.example.com/{a}/{b}/{c}=acme/tools:docs/{a}/{b}/{c}.md',
  'https://internal.example.com/{page}=acme/internal-x9:docs/{page}.md',
  'https://unindexed.example.com/{page}=hidden-org/pending-q7:{page}.md',
].join(';');

/** Principals of the tokens the suites use: what scopedAccess sees. */
export const PRINCIPALS = {
  anonymous: null,
  publicToken: { id: 'public-bot' },
  acmeToken: { id: 'acme-team', repositories: ['acme/*'] },
  vaultToken: { id: 'vault-reader', repositories: ['hidden-org/vault-q7'] },
  adminToken: { id: 'admin', repositories: ['*'] },
  // Signed in with GitHub: what the permission mirror says each may read (alice: acme/internal-x9, id 103; bob: nothing private).
  aliceSignedIn: personPrincipal(9001, 'alice', new Set([103])),
  bobSignedIn: personPrincipal(9002, 'bob', new Set()),
} satisfies Record<string, Principal | null>;

/** Ids of the world's private repositories (createSecurityWorld), for the people's readable sets. */
const PRIVATE_IDS: Record<string, number> = { [ACME_PRIVATE]: 103, [VAULT]: 104, [UNINDEXED_PRIVATE]: 105 };

export type Caller = keyof typeof PRINCIPALS;

/** Tokens (as GITDEX_READER_TOKENS holds them) for the HTTP suites. */
export const TOKENS = {
  publicToken: 'pub-tok-0123456789abcdef',
  acmeToken: 'acme-tok=+/~.-_:0123456789',
  vaultToken: 'vault-tok-fedcba9876543210',
  adminToken: 'admin-tok-00112233445566778899',
  aliceSignedIn: 'gdx_at_alice-signed-in-0123456789',
  bobSignedIn: 'gdx_at_bob-signed-in-0123456789',
} as const;

export const TOKENS_ENV = [
  `public-bot:${TOKENS.publicToken}=public`,
  `acme-team:${TOKENS.acmeToken}=acme/*`,
  `vault-reader:${TOKENS.vaultToken}=Hidden-Org/Vault-Q7`,
  `admin:${TOKENS.adminToken}=*`,
].join(';');

/** Whether a caller may read a private repository of the world. */
export function mayRead(caller: Caller, repository: string): boolean {
  const principal = PRINCIPALS[caller];
  if (principal && 'readableRepositoryIds' in principal) return principal.readableRepositoryIds.has(PRIVATE_IDS[repository] ?? -1);
  const patterns = principal && 'repositories' in principal ? principal.repositories : [];
  const name = repository.toLowerCase();
  return patterns.some((p) => p === '*' || p === name || (p.endsWith('/*') && name.startsWith(p.slice(0, -1))));
}

/** Texts that must not appear in an answer to this caller (markers of what it may not read). */
export function forbiddenFor(caller: Caller): { content: string[]; names: string[] } {
  const content: string[] = [];
  const names: string[] = [];
  for (const [repository, markers] of Object.entries(PRIVATE_MARKERS)) {
    if (mayRead(caller, repository)) continue;
    if (markers.content) content.push(markers.content);
    names.push(...markers.names);
  }
  if (!mayRead(caller, VAULT) && !mayRead(caller, UNINDEXED_PRIVATE)) names.push('hidden-org');
  return { content, names };
}

/**
 * What a request carried, its cursors read too: a cursor is base64 of JSON the caller holds
 * (forged by the fuzzers with private names in it), and an error may say back what it names.
 */
function carried(request: string): string {
  const cursors = [...request.matchAll(/"cursor":"([A-Za-z0-9+/_=-]+)"/g)].map(([, token]) => Buffer.from(token as string, 'base64url').toString('utf8'));
  return [request, ...cursors].join('\n');
}

/**
 * What in an answer leaked: content canaries always count; a private name or path counts
 * unless the request itself carried it, in its text or in a cursor (an error may say "x is
 * not indexed" or "the cursor continues folder x" back).
 */
export function leaks(answer: string, request: string, caller: Caller): string[] {
  const { content, names } = forbiddenFor(caller);
  const text = answer.toLowerCase();
  const asked = carried(request).toLowerCase();
  return [...content.filter((c) => text.includes(c.toLowerCase())), ...names.filter((n) => text.includes(n.toLowerCase()) && !asked.includes(n.toLowerCase()))];
}

export interface SecurityWorld {
  index: IndexStore;
  publisher: RecordingPublisher;
  /** One commit on each repository's default branch, whose message and author hold a private repository's canary and names. */
  history: HistoryStore;
}

/** A repository's default branch gets one commit in history, carrying the repository's markers. */
async function seedHistory(history: HistoryStore, state: RefState, marker: string): Promise<void> {
  const person = { name: marker, email: `${marker}@example.com`, date: '2025-01-01T00:00:00Z' };
  const commit = state.commitSha as string;
  await history.putCommits(state.repositoryId, [
    {
      sha: commit,
      parents: [],
      author: person,
      committer: person,
      message: `Initial ${marker}`,
      files: [{ path: 'src/index.ts', previousPath: null, status: 'added', additions: 1, deletions: 0, blobBefore: null, blobAfter: 'b'.repeat(40) }],
      filesComplete: true,
    },
  ]);
  await history.putRefHistory({ repositoryId: state.repositoryId, ref: state.ref, head: commit, commits: [commit] });
  // Its version blame as the indexer stores it, so a blame reads the stored record too.
  const key = heldKey(commit, (c) => (c === commit ? [] : undefined), new Map());
  await history.putVersionBlames(state.repositoryId, [{ key, path: 'src/index.ts', commit, blame: { owners: [[commit, 'src/index.ts', 1]], runs: [0, 0, 1] } }]);
}

/** Repository ids 101 to 105 (the fuzzers forge cursors for them). */
export async function createSecurityWorld(index: IndexStore = new SqliteIndexStore({ file: ':memory:' })): Promise<SecurityWorld> {
  const base = 100;
  await index.ensureReady();
  const history = new SqliteHistory({ file: ':memory:' });
  await seedHistory(history, (await seedRepository(index, { id: base + 1, fullName: 'acme/tools', files: PUBLIC_FILES })).state, 'tools-author');
  await seedHistory(
    history,
    (await seedRepository(index, { id: base + 2, fullName: 'octo/web', files: { 'README.md': '# Web\n', 'src/index.ts': 'web\n', 'src/app.ts': 'app\n' } })).state,
    'web-author',
  );
  const acme = await seedRepository(index, {
    id: base + 3,
    fullName: ACME_PRIVATE,
    private: true,
    files: {
      'README.md': `# Internal\n${CANARY.acme}\n`,
      'src/index.ts': `export const secret = '${CANARY.acme}';\n`,
      'acme-only-k3/config.ts': `${CANARY.acme}\n`,
      'docs/guide.md': `${CANARY.acme}\n`,
    },
  });
  await seedHistory(history, acme.state, CANARY.acme);
  const vault = await seedRepository(index, {
    id: base + 4,
    fullName: VAULT,
    private: true,
    files: {
      'README.md': `# Vault\n${CANARY.vault}\n`,
      'src/index.ts': `${CANARY.vault}\n`,
      'docs/guide.md': `${CANARY.vault}\n`,
      'docs/plan-zz9.md': `${CANARY.vault}\n`,
      'vault-only-z8/keys.txt': `${CANARY.vault}\n`,
      'space name/file with spaces.txt': `${CANARY.vault}\n`,
    },
  });
  await seedHistory(history, vault.state, CANARY.vault);
  await index.putRepository({ ...repositoryDocument({ id: base + 5, fullName: UNINDEXED_PRIVATE }), private: true });
  // Each private repository has an open pull request (pull/3) whose head and title hold its canary and names.
  for (const [id, fullName] of [
    [base + 3, ACME_PRIVATE],
    [base + 4, VAULT],
  ] as const) {
    const markers = PRIVATE_MARKERS[fullName]!;
    const { state } = await seedRepository(index, {
      id,
      fullName,
      private: true,
      ref: 'refs/pull/3/head',
      commitLabel: `${fullName}#3`,
      files: { 'README.md': `# ${markers.content}\n`, 'src/index.ts': `${markers.content} in a pull request\n` },
    });
    await index.putRefState({ ...state, pull: privatePull(markers.names[0]!, state.commitSha!) });
  }
  // Elasticsearch: make the file writes searchable (the SQLite store has nothing to refresh).
  await (index as IndexStore & { refresh?: () => Promise<void> }).refresh?.();
  return { index, publisher: new RecordingPublisher(), history };
}

/** A private repository's pull request, titled and authored with its private names. */
function privatePull(name: string, headSha: string): NonNullable<RefState['pull']> {
  return { number: 3, title: `Move ${name}`, state: 'open', merged: false, draft: false, author: name, baseRef: 'main', headSha, updatedAt: '2025-01-02T00:00:00.000Z', closedAt: null };
}

/** Lower-case names of the private repositories a caller may not read, for checks on the event log. */
export function unreadablePrivate(caller: Caller): string[] {
  return PRIVATE.filter((name) => !mayRead(caller, name));
}
