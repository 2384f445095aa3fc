/**
 * What recognising a caller costs per request: the reader's authenticate hook for a static
 * token beside a signed-in person's gitdex token (access record, grant, the mirror's person),
 * with the sign-in store on SQLite and on Elasticsearch. GitHub and the mirror are in memory:
 * this measures the store reads a request adds, not GitHub.
 * Run: ELASTICSEARCH_URL=http://127.0.0.1:9200 npx tsx --tsconfig bench/tsconfig.json bench/micro/sign-in-auth.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import type { Request, Response } from 'express';
import type { SignInStore } from '@gitdex/ports';
import { ElasticsearchSignInStore } from '@gitdex/elasticsearch';
import { SqliteSignInStore } from '@gitdex/sqlite';
import { aesGcmSealer, bearerTokens, MemoryPermissionStore, PermissionMirror, SignInProvider, signInAuthenticate, type Authenticate } from '@gitdex/reader';
import { median } from '../measure/stats';

const ROUNDS = 500;

async function signedInToken(store: SignInStore): Promise<{ authenticate: Authenticate; token: string }> {
  let state = '';
  const mirror = new PermissionMirror({
    store: new MemoryPermissionStore(),
    github: { whoAmI: () => Promise.resolve({ userId: 1, login: 'alice' }), readableRepositoryIds: () => Promise.resolve([10, 11, 12]) },
    tokens: () => Promise.resolve(null),
  });
  const provider = new SignInProvider({
    store,
    github: {
      authorizeUrl: (s) => {
        state = s;
        return 'https://github.invalid/';
      },
      exchange: () => Promise.resolve({ accessToken: 'ghu_bench' }),
      renew: () => Promise.resolve({ accessToken: 'ghu_bench' }),
    },
    people: mirror,
    sealer: aesGcmSealer(new Uint8Array(32).fill(3)),
    resource: new URL('https://gitdex.example.com/'),
    callbackUrl: 'https://gitdex.example.com/oauth/callback',
  });
  const client = await provider.clientsStore.registerClient!({ redirect_uris: ['http://127.0.0.1:1/cb'], token_endpoint_auth_method: 'none' });
  await provider.authorize(client, { codeChallenge: 'c', redirectUri: 'http://127.0.0.1:1/cb' }, { redirect: () => undefined } as unknown as Response);
  const back = await provider.completeSignIn({ code: 'x', state });
  const code = new URL((back as { redirect: string }).redirect).searchParams.get('code') ?? '';
  const tokens = await provider.exchangeAuthorizationCode(client, code);
  return { authenticate: signInAuthenticate(provider, mirror, bearerTokens([{ token: 'static-token-0123456789', principal: { id: 'ci' } }])), token: tokens.access_token };
}

async function time(authenticate: Authenticate, token: string): Promise<number> {
  const req = { headers: { authorization: `Bearer ${token}` } } as Request;
  for (let i = 0; i < 50; i += 1) await authenticate(req);
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const t = performance.now();
    const principal = await authenticate(req);
    samples.push(performance.now() - t);
    if (!principal) throw new Error('not recognised');
  }
  return median(samples);
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sign-in-bench-'));
  const sqlite = new SqliteSignInStore({ file: join(dir, 'sign-in.sqlite') });
  const es = new Client({ node: process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200' });
  const prefix = `signinbench${Date.now().toString(36)}`;
  try {
    const onSqlite = await signedInToken(sqlite);
    const onEs = await signedInToken(new ElasticsearchSignInStore(es, { indexPrefix: prefix }));
    const rows = [
      ['static token', await time(onSqlite.authenticate, 'static-token-0123456789')],
      ['signed-in person, SQLite store', await time(onSqlite.authenticate, onSqlite.token)],
      ['signed-in person, Elasticsearch store', await time(onEs.authenticate, onEs.token)],
    ] as const;
    for (const [what, ms] of rows) console.log(`${what}: median ${ms.toFixed(3)} ms (${(ms / rows[0][1]).toFixed(1)}x static)`);
  } finally {
    sqlite.close();
    await es.indices.delete({ index: `${prefix}-sign-in` }, { ignore: [404] });
    await es.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
