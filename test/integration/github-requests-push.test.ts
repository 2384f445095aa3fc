import { addSubmodule, commitFiles, createRepo, forcePush, type FileChanges } from '../github-standin/fixture-repos';
import { gitHead } from '../support/git-truth';
import { expectIndexEqualsGit } from '../support/index-truth';
import { startPipeline, type Pipeline } from '../support/pipeline';

const MAIN = 'refs/heads/main';
const GRAPHQL = 'POST /graphql';
const COMPARE = 'GET /repos/:owner/:repo/compare/*basehead';
const BLOB = 'GET /repos/:owner/:repo/git/blobs/:sha';

/**
 * What a push costs GitHub, counted at the stand-in on the real path (webhook → Kafka → indexer →
 * Elasticsearch) with credentials, as gitdex runs: compare and one GraphQL query for up to 300
 * changed files, and the index equal to git after every push, whatever path it took.
 */
describe('a push costs two GitHub requests', () => {
  let p: Pipeline;
  let dir: string;
  let id: number;

  /** The requests made until the push is readable (a redelivered event may come after), then the index checked against git. */
  const push = async (sha: string, contentSample = 400): Promise<Record<string, number>> => {
    p.standIn.requests.reset();
    await p.standIn.push('acme', 'lean', { ref: MAIN });
    await p.waitForCommit(id, MAIN, sha);
    const counts = p.standIn.requests.counts();
    await expectIndexEqualsGit(p.index, id, MAIN, dir, { contentSample });
    return counts;
  };

  beforeAll(async () => {
    p = await startPipeline({ token: 'lean-token' });
    const files: FileChanges = {};
    for (let i = 0; i < 24; i += 1) files[`src/m${i % 4}/deep/f${i}.ts`] = `export const v${i} = ${i};\n`;
    const repo = await createRepo(p.root, 'acme', 'lean', files);
    dir = repo.dir;
    id = await p.standIn.repoId('acme', 'lean');
    await push(gitHead(dir, 'main'));
  });
  afterAll(() => p.close());

  it('indexes a one-file and a ten-file push with compare and one GraphQL query', async () => {
    expect(await push(await commitFiles(dir, { 'src/m1/deep/f1.ts': 'export const v1 = "one";\n' }, 'one file'))).toEqual({ [COMPARE]: 1, [GRAPHQL]: 1 });

    const ten: FileChanges = {
      'src/m0/deep/f0.ts': null,
      'src/m2/deep/f2.ts': 'export const v2 = "crlf";\r\n',
      'src/m3/deep/f3.ts': 'export const v3 = "🚀 ünïcödé";\n',
      'new dir/with space.md': '# added\n',
      'bin/run.sh': { content: '#!/bin/sh\necho hi\n', executable: true },
      'link.ts': { symlink: 'src/m1/deep/f1.ts' },
      'src/m1/deep/f5.ts': 'export const v5 = "moved";\n',
      'src/m1/deep/f9.ts': 'export const v9 = "nine";\n',
      'empty.txt': '',
      'src/m2/deep/f6.ts': null,
    };
    const counts = await push(await commitFiles(dir, ten, 'ten files'));
    expect(counts).toEqual({ [COMPARE]: 1, [GRAPHQL]: 1 });
  });

  it('keeps bytes exact for binary, non-UTF-8 and BOM files: those GraphQL cannot give exactly are read as blobs', async () => {
    const files: FileChanges = {
      'assets/pixel.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff]),
      'legacy/latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('with bom\n')]),
      'plain.txt': 'plain\n',
    };
    const counts = await push(await commitFiles(dir, files, 'fidelity'));
    expect(counts).toEqual({ [COMPARE]: 1, [GRAPHQL]: 1, [BLOB]: 3 });
    const vendored = await addSubmodule(dir, 'vendor/lib', '0123456789abcdef0123456789abcdef01234567');
    expect(await push(vendored)).toEqual({ [COMPARE]: 1, [GRAPHQL]: 1 });
  });

  it('ends equal to git after a force push and after a push of more than 300 files, by tree comparison', async () => {
    const rewritten: FileChanges = { 'only.txt': 'history rewritten\n', 'src/m1/deep/f1.ts': 'export const v1 = "kept";\n' };
    const forced = await push(await forcePush(dir, 'main', rewritten));
    // Unrelated histories: GitHub's compare answers 404, and the full path (repository, branch, trees) decides.
    expect(forced[COMPARE]).toBe(1);
    expect(forced['GET /repos/:owner/:repo/branches/*branch']).toBe(1);

    const many: FileChanges = {};
    for (let i = 0; i < 320; i += 1) many[`many/d${i % 8}/f${i}.txt`] = `line ${i}\n`;
    const wide = await push(await commitFiles(dir, many, '320 files'), 50);
    expect(wide[BLOB] ?? 0).toBe(0);
    // compare (cut at 300), GraphQL for the repository, both trees whole, then the contents in two queries of at most 300.
    expect(wide).toEqual({ [COMPARE]: 1, [GRAPHQL]: 3, 'GET /repos/:owner/:repo/git/trees/*tree_sha': 2 });
  });
});
