// The repositories of a scaling run on the GitHub stand-in: many small "storm" repositories that
// get pushes of a few files, and "cost" repositories of 120 source files whose pushes change 1,
// 10 or 100 of them. Commits are made BEFORE a measurement on a side branch (git fast-import), so
// that during it a push costs the generator a ref write and a signed webhook, not a dozen git runs.
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRepo, fixtureGit } from '../../test/github-standin/fixture-repos';
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
  /** Commits made and not yet pushed, oldest first, with the paths each changed. */
  prepared: { seq: number; sha: string; paths: string[] }[];
  /** The payload of the first push (firstPush), the template of the others. */
  template?: Record<string, unknown>;
  /** The commit the default branch was last pushed at. */
  head?: string;
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

/**
 * Commits on `ref`, one after the other from `from` (null: a root commit), in ONE `git
 * fast-import` run: thousands of commits in a second or two, where a commit made with plumbing
 * commands costs a dozen processes. Answers their SHAs in order.
 */
export async function importCommits(dir: string, ref: string, from: string | null, commits: { message: string; files: Record<string, string> }[]): Promise<string[]> {
  if (commits.length === 0) return [];
  const parts: Buffer[] = [];
  const text = (t: string) => parts.push(Buffer.from(t));
  const data = (body: string) => {
    const bytes = Buffer.from(body);
    text(`data ${bytes.length}\n`);
    parts.push(bytes);
    text('\n');
  };
  const when = Math.floor(Date.now() / 1000);
  commits.forEach((c, i) => {
    text(`commit ${ref}\nmark :${i + 1}\ncommitter Stand-in Tester <tester@example.com> ${when + i} +0000\n`);
    data(c.message);
    if (i > 0) text(`from :${i}\n`);
    else if (from) text(`from ${from}\n`);
    for (const [path, content] of Object.entries(c.files)) {
      text(`M 100644 inline ${path}\n`);
      data(content);
    }
  });
  const marks = join(dir, `marks-${randomBytes(4).toString('hex')}`);
  try {
    await fixtureGit(dir, ['fast-import', '--quiet', '--force', `--export-marks=${marks}`], Buffer.concat(parts));
    const byMark = new Map(
      (await readFile(marks, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.split(' ')[0]!, line.split(' ')[1]!] as const),
    );
    return commits.map((_, i) => byMark.get(`:${i + 1}`)!);
  } finally {
    await rm(marks, { force: true });
  }
}

async function register(standIn: GitHubStandIn, root: string, owner: string, name: string, files: Record<string, string>, kind: ScaleRepo['kind'], probePath: string): Promise<ScaleRepo> {
  const repo = await createRepo(root, owner, name, {}, { bare: true });
  await importCommits(repo.dir, MAIN, null, [{ message: 'Initial commit', files }]);
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
  const repos = new Array<ScaleRepo>(count);
  await pool(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      const name = `r${String(i + 1).padStart(3, '0')}`;
      const files: Record<string, string> = { 'README.md': `# scale/${name}\n`, [STORM_PROBE]: 'push 0\n', 'package.json': `{ "name": "${name}" }\n` };
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
    const files: Record<string, string> = { 'README.md': `# cost/k${k}\n` };
    for (let i = 0; i < COST_FILES; i += 1) files[costPath(i)] = sourceFile(`cost/k${k} f${i}`, 0, 1500);
    out.set(k, await register(standIn, root, 'scale-cost', `k${k}`, files, 'cost', costPath(0)));
  }
  return out;
}

/** The files a storm push changes: the probe, one module, one guide. */
function stormChanges(repo: ScaleRepo, n: number): Record<string, string> {
  return {
    [STORM_PROBE]: `push ${n}\n`,
    [`src/module${n % 6}.ts`]: sourceFile(`${repo.fullName} module${n % 6}`, n, 2000),
    [`docs/part${n % 8}/guide.md`]: `# part ${n % 8} of ${repo.name}, push ${n}\n\n${'Some prose about this part. '.repeat(30)}\n`,
  };
}

/** The files a cost push changes: the first `k` source files (the first one is the probe). */
function costChanges(repo: ScaleRepo, n: number, k: number): Record<string, string> {
  const changes: Record<string, string> = {};
  for (let i = 0; i < k; i += 1) changes[costPath(i)] = sourceFile(`${repo.fullName} f${i}`, n, 1500);
  return changes;
}

/**
 * Makes `count` commits on the side branch, starting from the default branch's head, each
 * changing what a push of this kind changes (`k` files for a cost repository).
 */
export async function prepareCommits(repo: ScaleRepo, count: number, k = 3): Promise<void> {
  const head = (await fixtureGit(repo.dir, ['rev-parse', `${MAIN}^{commit}`])).toString().trim();
  const planned = Array.from({ length: count }, () => {
    repo.seq += 1;
    const n = repo.seq;
    return { seq: n, files: repo.kind === 'storm' ? stormChanges(repo, n) : costChanges(repo, n, k) };
  });
  const shas = await importCommits(
    repo.dir,
    `refs/heads/${NEXT}`,
    head,
    planned.map((p) => ({ message: `push ${p.seq}`, files: p.files })),
  );
  repo.prepared = planned.map((p, i) => ({ seq: p.seq, sha: shas[i]!, paths: Object.keys(p.files) }));
  for (const p of repo.prepared) repo.seqOfSha.set(p.sha, p.seq);
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

type Json = Record<string, unknown>;

/**
 * The repository's first push, delivered by the stand-in as GitHub would (created: true); its
 * payload becomes the template of the pushes that follow (pushNext).
 */
export async function firstPush(standIn: GitHubStandIn, repo: ScaleRepo): Promise<PushOutcome> {
  const { payload, delivery } = await standIn.push(repo.owner, repo.name, { ref: MAIN });
  repo.template = payload as unknown as Json;
  repo.head = payload.after;
  return { seq: 0, sha: payload.after, sentAt: Date.parse(delivery.deliveredAt), status: delivery.status, ackMs: delivery.durationMs, deliveryId: delivery.id };
}

/**
 * GitHub's push payload for before → after, from the repository's first payload. The stand-in
 * builds payloads with a dozen git commands (~90 ms of CPU on this machine), which at tens of
 * pushes a second would take the cores gitdex is measured on; what gitdex reads of a payload
 * (repository, ref, before, after, the flags) is exactly what GitHub sends.
 */
function pushPayload(template: Json, before: string, after: string, seq: number, paths: string[]): Json {
  const head = {
    ...(template.head_commit as Json | null),
    id: after,
    tree_id: undefined,
    distinct: true,
    message: `push ${seq}`,
    timestamp: new Date().toISOString(),
    added: [],
    removed: [],
    modified: paths,
  };
  const repository = { ...(template.repository as Json) };
  repository.pushed_at = typeof repository.pushed_at === 'number' ? Math.floor(Date.now() / 1000) : new Date().toISOString();
  return {
    ...template,
    before,
    after,
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    compare: `${(typeof template.compare === 'string' ? template.compare : '').replace(/compare\/.*$/, 'compare/')}${before.slice(0, 12)}...${after.slice(0, 12)}`,
    commits: [head],
    head_commit: head,
    repository,
  };
}

/** Moves a branch by writing its loose ref (atomically: write, then rename), as `git update-ref` would, without a process. */
async function moveRef(dir: string, ref: string, sha: string): Promise<void> {
  const file = join(dir, ref);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, `${sha}\n`);
  await rename(tmp, file);
}

/**
 * Moves the default branch to the next prepared commit and delivers its push webhook (in order
 * with the repository's other pushes). Answers null when nothing is prepared.
 */
export function pushNext(standIn: GitHubStandIn, repo: ScaleRepo): Promise<PushOutcome | null> {
  const result = repo.chain.then(async (): Promise<PushOutcome | null> => {
    const next = repo.prepared.shift();
    if (!next) return null;
    if (!repo.template || !repo.head) throw new Error(`${repo.fullName}: firstPush() first`);
    await moveRef(repo.dir, MAIN, next.sha);
    const delivery = await standIn.deliver('push', pushPayload(repo.template, repo.head, next.sha, next.seq, next.paths));
    repo.head = next.sha;
    return { seq: next.seq, sha: next.sha, sentAt: Date.parse(delivery.deliveredAt), status: delivery.status, ackMs: delivery.durationMs, deliveryId: delivery.id };
  });
  repo.chain = result.then(
    () => undefined,
    () => undefined,
  );
  return result;
}
