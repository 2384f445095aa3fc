// Git data through a real Octokit: recursive (and truncated) trees, blobs (base64 and raw)
// and tarballs (302 to a streamed `git archive`) of a repo with every awkward kind of entry.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createSampleRepo, SAMPLE_BINARY as binary, SAMPLE_FILES as files, SAMPLE_SUBMODULE_SHA as SUBMODULE_SHA } from '../github-standin/sample-repo';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { readTarGz } from '../github-standin/tar-archive';
import { createTestOctokit, type StandInOctokitInstance } from '../github-standin/test-octokit';

const TOKEN = 'test-token';
const OWNER = 'octo-org';
const REPO = 'hello-world';

describe('GitHub stand-in git data', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let octokit: StandInOctokitInstance;
  let head: string;
  let featureHead: string;

  beforeAll(async () => {
    root = await makeTempRoot();
    ({ head, featureHead } = await createSampleRepo(root, OWNER, REPO));
    standIn = await createGitHubStandIn({ root, token: TOKEN });
    octokit = createTestOctokit({ baseUrl: standIn.url, token: TOKEN }).octokit;
  });

  afterAll(async () => {
    await standIn?.close();
    await removeTempRoot(root);
  });

  beforeEach(() => {
    standIn.faults.clear();
    standIn.requests.reset();
  });

  it('lists recursive trees with modes, types and sizes', async () => {
    const { data } = await octokit.rest.git.getTree({ owner: OWNER, repo: REPO, tree_sha: 'main', recursive: '1' });
    expect(data.truncated).toBe(false);
    const byPath = new Map(data.tree.map((e) => [e.path, e]));
    for (const [path, content] of Object.entries(files)) {
      expect(byPath.get(path)).toMatchObject({ type: 'blob', mode: '100644', size: Buffer.byteLength(content) });
    }
    expect(byPath.get('scripts/run.sh')).toMatchObject({ type: 'blob', mode: '100755' });
    expect(byPath.get('link-to-readme')).toMatchObject({ type: 'blob', mode: '120000', size: 'README.md'.length });
    expect(byPath.get('vendor/lib')).toMatchObject({ type: 'commit', mode: '160000', sha: SUBMODULE_SHA });
    expect(byPath.get('vendor/lib')?.size).toBeUndefined();
    expect(byPath.get('src/deep/nested')).toMatchObject({ type: 'tree', mode: '040000' });
    expect(byPath.get('docs/with space')).toMatchObject({ type: 'tree' });
    // Pre-order like GitHub: a folder comes before its contents.
    const paths = data.tree.map((e) => e.path);
    expect(paths.indexOf('src/deep')).toBeLessThan(paths.indexOf('src/deep/nested/module.ts'));

    const top = await octokit.rest.git.getTree({ owner: OWNER, repo: REPO, tree_sha: data.sha });
    expect(top.data.tree.map((e) => e.path).sort()).toEqual(['.gitmodules', 'README.md', 'assets', 'docs', 'link-to-readme', 'scripts', 'src', 'vendor', '日本語']);
  });

  it('truncates recursive trees on demand', async () => {
    const full = await octokit.rest.git.getTree({ owner: OWNER, repo: REPO, tree_sha: 'main', recursive: 'true' });
    standIn.faults.add({ type: 'truncate_trees', maxEntries: 3, count: 1 });
    const cut = await octokit.rest.git.getTree({ owner: OWNER, repo: REPO, tree_sha: 'main', recursive: 'true' });
    expect(cut.data.truncated).toBe(true);
    expect(cut.data.tree).toEqual(full.data.tree.slice(0, 3));
    const again = await octokit.rest.git.getTree({ owner: OWNER, repo: REPO, tree_sha: 'main', recursive: 'true' });
    expect(again.data.truncated).toBe(false);

    standIn.configure({ maxTreeEntries: 5 });
    try {
      const limited = await octokit.rest.git.getTree({ owner: OWNER, repo: REPO, tree_sha: 'main', recursive: 'true' });
      expect(limited.data.tree).toHaveLength(5);
      expect(limited.data.truncated).toBe(true);
    } finally {
      standIn.configure({ maxTreeEntries: 100_000 });
    }
  });

  it('serves blobs as wrapped base64 and as raw bytes', async () => {
    const { data: tree } = await octokit.rest.git.getTree({ owner: OWNER, repo: REPO, tree_sha: 'main', recursive: '1' });
    for (const [path, content] of Object.entries(files)) {
      const sha = tree.tree.find((e) => e.path === path)?.sha ?? '';
      const { data } = await octokit.rest.git.getBlob({ owner: OWNER, repo: REPO, file_sha: sha });
      expect(data).toMatchObject({ sha, encoding: 'base64', size: Buffer.byteLength(content) });
      expect(Buffer.from(data.content, 'base64').equals(Buffer.from(content))).toBe(true);
      expect(data.content.split('\n').every((line) => line.length <= 60)).toBe(true);
    }
    const binarySha = tree.tree.find((e) => e.path === 'assets/logo.bin')?.sha ?? '';
    const raw = await octokit.request('GET /repos/{owner}/{repo}/git/blobs/{file_sha}', { owner: OWNER, repo: REPO, file_sha: binarySha, headers: { accept: 'application/vnd.github.raw' } });
    expect(Buffer.from(raw.data as unknown as ArrayBuffer).equals(binary)).toBe(true);
  });

  it('redirects tarball downloads to a streamed git archive', async () => {
    const response = await octokit.rest.repos.downloadTarballArchive({ owner: OWNER, repo: REPO, ref: 'main' });
    const { entries, comment } = await readTarGz(response.data as ArrayBuffer);
    expect(comment).toBe(head);
    const top = `${OWNER}-${REPO}-${head.slice(0, 7)}/`;
    expect(entries.every((e) => e.name.startsWith(top))).toBe(true);
    const byName = new Map(entries.map((e) => [e.name.slice(top.length), e]));
    for (const [path, content] of Object.entries(files)) expect(byName.get(path)?.data.equals(Buffer.from(content))).toBe(true);
    expect(byName.get('link-to-readme')).toMatchObject({ type: 'symlink', linkname: 'README.md' });
    expect(byName.get('vendor/lib/')?.type).toBe('directory');
    expect(byName.has('feature.txt')).toBe(false);

    const redirect = await fetch(`${standIn.url}/repos/${OWNER}/${REPO}/tarball/feature/x`, { headers: { authorization: `token ${TOKEN}` }, redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(`${standIn.url}/_codeload/${OWNER}/${REPO}/legacy.tar.gz/${featureHead}`);
    expect(standIn.requests.count('/_codeload/:owner/:repo/:format/:sha')).toBe(1);
  });

  it('serves an archive it made before from its archive cache, byte for byte', async () => {
    const cacheDir = await makeTempRoot();
    const cachingStandIn = await createGitHubStandIn({ root, token: TOKEN, archiveCacheDir: cacheDir });
    try {
      const url = `${cachingStandIn.url}/repos/${OWNER}/${REPO}/tarball/${head}`;
      const download = async () => Buffer.from(await (await fetch(url, { headers: { authorization: `token ${TOKEN}` } })).arrayBuffer());
      const first = await download();
      // The copy is renamed into place once git archive exits, which may come after the last byte was sent.
      for (let turn = 0; readdirSync(cacheDir).filter((f) => f.endsWith('.tar.gz')).length === 0; turn += 1) {
        if (turn > 1000) throw new Error('the archive never reached the cache');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const cached = readdirSync(cacheDir);
      expect(cached).toEqual([`${OWNER}-${REPO}-${head}.tar.gz`]);
      // A different archive on disk proves the second answer comes from the cache, not git.
      writeFileSync(join(cacheDir, cached[0]!), Buffer.concat([first, Buffer.from('cache marker')]));
      const second = await download();
      expect(second.subarray(0, first.length).equals(first)).toBe(true);
      expect(second.subarray(first.length).toString()).toBe('cache marker');
    } finally {
      await cachingStandIn.close();
      await removeTempRoot(cacheDir);
    }
  });
});
