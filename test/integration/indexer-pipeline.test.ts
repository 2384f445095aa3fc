import { addSymlink, commitFiles, createBranch, createRepo, deleteBranch, forcePush, renamePath } from '../github-standin/fixture-repos';
import { createSampleRepo } from '../github-standin/sample-repo';
import { expectIndexEqualsGit } from '../support/index-truth';
import { gitHead } from '../support/git-truth';
import { startPipeline, type Pipeline } from '../support/pipeline';

const MAIN = 'refs/heads/main';

describe('indexer: push webhooks through Kafka become exactly GitHub in Elasticsearch', () => {
  let p: Pipeline;

  beforeAll(async () => {
    p = await startPipeline({ refs: ['default', 'feature/*'], indexRef: { maxFileBytes: 2000 } });
  });
  afterAll(() => p.close());

  it('fully indexes a repository with nested folders, binaries, large files, Unicode and space paths, a symlink and a submodule', async () => {
    const repo = await createSampleRepo(p.root, 'acme', 'sample');
    await commitFiles(repo.dir, { 'big/large.txt': 'x'.repeat(5000) + '\n', 'emoji 🚀/ünïcödé file.md': '# 🚀\n' }, 'large and emoji');
    // Read fidelity: generated and vendored files, another encoding, CRLF line ends.
    await commitFiles(
      repo.dir,
      {
        'dist/index.js': 'module.exports=function(){return 1};\n',
        'vendor/github.com/acme/x/x.go': 'package x\r\n',
        'legacy/latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      },
      'dist, vendor and latin-1',
    );
    const id = await p.standIn.repoId('acme', 'sample');
    await p.standIn.push('acme', 'sample', { ref: MAIN });
    await p.waitForCommit(id, MAIN, gitHead(repo.dir, 'main'));
    await expectIndexEqualsGit(p.index, id, MAIN, repo.dir);

    const state = (await p.index.getRefState(id, MAIN))!;
    const snapshot = { repositoryId: id, ref: MAIN, generation: state.generation };
    expect(await p.index.getFile(snapshot, 'assets/logo.bin')).toMatchObject({ content: null, flags: { binary: true } });
    expect(await p.index.getFile(snapshot, 'big/large.txt')).toMatchObject({ content: null, size: 5001, flags: { tooLarge: true } });
    expect(await p.index.getFile(snapshot, 'link-to-readme')).toMatchObject({ kind: 'symlink', target: 'README.md' });
    expect(await p.index.getFile(snapshot, 'vendor/lib')).toMatchObject({ kind: 'submodule', target: '0123456789abcdef0123456789abcdef01234567' });
    expect(await p.index.getFile(snapshot, 'emoji 🚀/ünïcödé file.md')).toMatchObject({ content: '# 🚀\n', language: 'Markdown' });
    expect(await p.index.getFile(snapshot, 'dist/index.js')).toMatchObject({ content: 'module.exports=function(){return 1};\n', flags: { generated: true } });
    expect(await p.index.getFile(snapshot, 'vendor/github.com/acme/x/x.go')).toMatchObject({ content: 'package x\r\n', flags: { vendored: true } });
    expect(await p.index.getFile(snapshot, 'legacy/latin1.txt')).toMatchObject({ content: 'café\n', encoding: 'windows-1252' });
    expect(await p.index.getRepository(id)).toMatchObject({ fullName: 'acme/sample', defaultBranch: 'main' });
  });

  it('follows add, modify, delete, rename, symlink, force push and branch deletion, fetching only what changed', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i += 1) files[`pkg${i % 4}/sub${i % 3}/file${i}.ts`] = `export const v${i} = ${i};\n`;
    const repo = await createRepo(p.root, 'acme', 'changes', files);
    const id = await p.standIn.repoId('acme', 'changes');
    await p.standIn.push('acme', 'changes', { ref: MAIN });
    await p.waitForCommit(id, MAIN, gitHead(repo.dir, 'main'));

    const steps: [string, () => Promise<string>][] = [
      ['add', () => commitFiles(repo.dir, { 'pkg1/sub1/new file.ts': 'export const added = true;\n' }, 'add')],
      ['modify', () => commitFiles(repo.dir, { 'pkg2/sub2/file2.ts': 'export const v2 = "changed";\n' }, 'modify')],
      ['delete', () => commitFiles(repo.dir, { 'pkg3/sub0/file3.ts': null }, 'delete')],
      ['rename', () => renamePath(repo.dir, 'pkg0/sub0/file0.ts', 'moved/file0.ts')],
      ['symlink', () => addSymlink(repo.dir, 'pkg0/link.ts', '../moved/file0.ts')],
    ];
    for (const [, change] of steps) {
      const sha = await change();
      p.standIn.requests.reset();
      await p.standIn.push('acme', 'changes', { ref: MAIN });
      await p.waitForCommit(id, MAIN, sha);
      await expectIndexEqualsGit(p.index, id, MAIN, repo.dir);
      // A push costs what changed: a few trees along the changed path and its blobs, never the tarball.
      const counts = p.standIn.requests.counts();
      const tarballs = Object.entries(counts)
        .filter(([k]) => k.includes('tarball'))
        .reduce((s, [, n]) => s + n, 0);
      const blobs = Object.entries(counts)
        .filter(([k]) => k.includes('blobs'))
        .reduce((s, [, n]) => s + n, 0);
      expect(tarballs).toBe(0);
      expect(blobs).toBeLessThanOrEqual(1);
    }

    const rewritten = await forcePush(repo.dir, 'main', { 'only.txt': 'history rewritten\n', 'pkg0/sub0/file0.ts': 'export const v0 = 0;\n' });
    await p.standIn.push('acme', 'changes', { ref: MAIN });
    await p.waitForCommit(id, MAIN, rewritten);
    await expectIndexEqualsGit(p.index, id, MAIN, repo.dir);

    const featureHead = await createBranch(repo.dir, 'feature/x');
    await p.standIn.push('acme', 'changes', { ref: 'refs/heads/feature/x' });
    await p.waitForCommit(id, 'refs/heads/feature/x', featureHead);
    await deleteBranch(repo.dir, 'feature/x');
    await p.standIn.push('acme', 'changes', { ref: 'refs/heads/feature/x' });
    await p.waitFor(async () => (await p.index.getRefState(id, 'refs/heads/feature/x')) === null, 'feature/x to be removed');
    await expectIndexEqualsGit(p.index, id, MAIN, repo.dir);
  });

  it('keeps serving the previous commit, and records the failure, while GitHub fails; converges after', async () => {
    const repo = await createRepo(p.root, 'acme', 'faulty', { 'a.txt': 'one\n' });
    const id = await p.standIn.repoId('acme', 'faulty');
    await p.standIn.push('acme', 'faulty', { ref: MAIN });
    await p.waitForCommit(id, MAIN, gitHead(repo.dir, 'main'));

    const next = await commitFiles(repo.dir, { 'a.txt': 'two\n', 'deep/er/b.txt': 'b\n' }, 'two');
    p.standIn.faults.add({ type: '5xx', count: 4, status: 502 });
    p.standIn.faults.add({ type: 'rate_limit', kind: 'secondary', count: 2, retryAfter: 1 });
    await p.standIn.push('acme', 'faulty', { ref: MAIN });
    await p.waitForCommit(id, MAIN, next);
    await expectIndexEqualsGit(p.index, id, MAIN, repo.dir);
    expect(p.logs.some((l) => l.message === 'event failed; retrying' && JSON.stringify(l.context).includes('acme/faulty'))).toBe(true);
  });

  it('falls back to walking subtrees when GitHub truncates a recursive tree', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i += 1) files[`d${i % 5}/f${i}.txt`] = `${i}\n`;
    const repo = await createRepo(p.root, 'acme', 'truncated', { 'seed.txt': 'seed\n' });
    const id = await p.standIn.repoId('acme', 'truncated');
    await p.standIn.push('acme', 'truncated', { ref: MAIN });
    await p.waitForCommit(id, MAIN, gitHead(repo.dir, 'main'));
    p.standIn.faults.add({ type: 'truncate_trees', maxEntries: 5 });
    try {
      const sha = await commitFiles(repo.dir, files, 'many new folders');
      await p.standIn.push('acme', 'truncated', { ref: MAIN });
      await p.waitForCommit(id, MAIN, sha);
      await expectIndexEqualsGit(p.index, id, MAIN, repo.dir);
    } finally {
      p.standIn.faults.clear();
    }
  });
});
