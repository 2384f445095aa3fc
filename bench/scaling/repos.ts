// The repositories of a scaling run on the GitHub stand-in: many small "storm" repositories that
// get pushes of a few files, and "cost" repositories of 120 source files whose pushes change 1,
// 10 or 100 of them. Commits are made BEFORE a measurement on a side branch, so that during it a
// push costs the generator one `git update-ref` and the stand-in's payload, not a dozen git runs.
import { createHash } from 'node:crypto';
import { commitFiles, createRepo, fixtureGit, type FileChanges } from '../../test/github-standin/fixture-repos';
import type { GitHubStandIn } from '../../test/github-standin/server';

export const MAIN = 'refs/heads/main';
/** Where the next pushes' commits wait (never pushed: gitdex indexes the default branch only). */
const NEXT = 'bench-next';
/** The file every push changes, holding "push <n>": what the freshness tracker reads. */
export const STORM_PROBE = 'STORM.md';
export const COST_FILES = 120;
export const costPath = (i: number) => `src/f${String(i).padStart(3, '0')}.ts`;

export interface ScaleRepo {
  owner: string;
  name: string;
  fullName: string;
  dir: string;
  id: number;
  kind: 'storm' | 'cost';
  /** The file whose content says which push is readable. */
  probePath: string;
  /** The last push number used (commits are numbered per repository, increasing). */
  seq: number;
  /** Commits made and not yet pushed, oldest first. */
  prepared: { seq: number; sha: string }[];
  /** Every commit ever prepared: sha → push number. */
  seqOfSha: Map<string, number>;
  /** Pushes to one repository go one after the other. */
  chain: Promise<void>;
}

/** A source file of about `bytes` bytes, different for every push number (so every blob is new). */
export function sourceFile(label: string, n: number, bytes: number): string {
  const lines = [`// ${label}, push ${n}`, `export const revision = ${n};`];
  let size = lines.join('\n').length;
  for (let i = 0; size < bytes; i += 1) {
    // Identifiers from a hash, so that the text compresses and splits into trigrams more like code than a repeated line would.
    const id = createHash('sha1').update(`${label}:${n}:${i}`).digest('hex');
    const line = `export function ${/^\d/.test(id) ? 'f' : ''}${id.slice(0, 10)}(input: number, ${id.slice(10, 16).replace(/^\d+/, 'v')}: string): number {\n  return input * ${i + 1} + ${id.slice(16, 18).length}; // ${label}\n}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

async function register(standIn: GitHubStandIn, root: string, owner: string, name: string, files: FileChanges, kind: ScaleRepo['kind'], probePath: string): Promise<ScaleRepo> {
  const repo = await createRepo(root, owner, name, files, { bare: true });
  return { owner, name, fullName: `${owner}/${name}`, dir: repo.dir, id: await standIn.repoId(owner, name), kind, probePath, seq: 0, prepared: [], seqOfSha: new Map(), chain: Promise.resolve() };
}

/** Runs `work` over the items, `limit` at a time. */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

/** `count` repositories of 17 files (~20 KB): README, the probe, six modules, eight guides. */
export async function createStormRepos(standIn: GitHubStandIn, root: string, count: number): Promise<ScaleRepo[]> {
  const repos: ScaleRepo[] = new Array(count);
  await pool(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      const name = `r${String(i + 1).padStart(3, '0')}`;
      const files: FileChanges = { 'README.md': `# scale/${name}\n`, [STORM_PROBE]: 'push 0\n', 'package.json': `{ "name": "${name}" }\n` };
      for (let m = 0; m < 6; m += 1) files[`src/module${m}.ts`] = sourceFile(`scale/${name} module${m}`, 0, 2000);
      for (let d = 0; d < 8; d += 1) files[`docs/part${d}/guide.md`] = `# part ${d} of ${name}\n\n${'Some prose about this part. '.repeat(30)}\n`;
      repos[i] = await register(standIn, root, 'scale', name, files, 'storm', STORM_PROBE);
    },
  );
  return repos;
}

/** One repository per changed-file count, each with COST_FILES source files of ~1.5 KB. */
export async function createCostRepos(standIn: GitHubStandIn, root: string, fileCounts: number[]): Promise<Map<number, ScaleRepo>> {
  const out = new Map<number, ScaleRepo>();
  for (const k of fileCounts) {
    const files: FileChanges = { 'README.md': `# cost/k${k}\n` };
    for (let i = 0; i < COST_FILES; i += 1) files[costPath(i)] = sourceFile(`cost/k${k} f${i}`, 0, 1500);
    out.set(k, await register(standIn, root, 'scale-cost', `k${k}`, files, 'cost', costPath(0)));
  }
  return out;
}

/** The files a storm push changes: the probe, one module, one guide. */
function stormChanges(repo: ScaleRepo, n: number): FileChanges {
  return {
    [STORM_PROBE]: `push ${n}\n`,
    [`src/module${n % 6}.ts`]: sourceFile(`${repo.fullName} module${n % 6}`, n, 2000),
    [`docs/part${n % 8}/guide.md`]: `# part ${n % 8} of ${repo.name}, push ${n}\n\n${'Some prose about this part. '.repeat(30)}\n`,
  };
}

/** The files a cost push changes: the first `k` source files (the first one is the probe). */
function costChanges(repo: ScaleRepo, n: number, k: number): FileChanges {
  const changes: FileChanges = {};
  for (let i = 0; i < k; i += 1) changes[costPath(i)] = sourceFile(`${repo.fullName} f${i}`, n, 1500);
  return changes;
}

/**
 * Makes `count` commits on the side branch, starting from the default branch's head, each
 * changing what a push of this kind changes (`k` files for a cost repository).
 */
export async function prepareCommits(repo: ScaleRepo, count: number, k = 3): Promise<void> {
  const head = (await fixtureGit(repo.dir, ['rev-parse', `${MAIN}^{commit}`])).toString().trim();
  await fixtureGit(repo.dir, ['update-ref', `refs/heads/${NEXT}`, head]);
  repo.prepared = [];
  for (let i = 0; i < count; i += 1) {
    repo.seq += 1;
    const n = repo.seq;
    const sha = await commitFiles(repo.dir, repo.kind === 'storm' ? stormChanges(repo, n) : costChanges(repo, n, k), `push ${n}`, { branch: NEXT });
    repo.prepared.push({ seq: n, sha });
    repo.seqOfSha.set(sha, n);
  }
}

export interface PushOutcome {
  seq: number;
  sha: string;
  /** When the stand-in began sending the webhook (ms since the epoch). */
  sentAt: number;
  /** Status of the first attempt (null: not reachable). */
  status: number | null;
  /** Webhook sent → answered, ms. */
  ackMs: number;
  deliveryId: string;
}

/**
 * Moves the default branch to the next prepared commit and delivers its push webhook (in order
 * with the repository's other pushes). Answers null when nothing is prepared.
 */
export function pushNext(standIn: GitHubStandIn, repo: ScaleRepo): Promise<PushOutcome | null> {
  const result = repo.chain.then(async (): Promise<PushOutcome | null> => {
    const next = repo.prepared.shift();
    if (!next) return null;
    await fixtureGit(repo.dir, ['update-ref', MAIN, next.sha]);
    const { delivery } = await standIn.push(repo.owner, repo.name, { ref: MAIN });
    return { seq: next.seq, sha: next.sha, sentAt: Date.parse(delivery.deliveredAt), status: delivery.status, ackMs: delivery.durationMs, deliveryId: delivery.id };
  });
  repo.chain = result.then(
    () => undefined,
    () => undefined,
  );
  return result;
}
