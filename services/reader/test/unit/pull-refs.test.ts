import type { RefState } from '@gitdex/contracts';
import { parseGithubUrl } from '../../src/address/github-url';
import { refOfRepositoryUrl } from '../../src/address/repository-name';
import { shortRef } from '../../src/freshness';
import { openPullRequests } from '../../src/pull-requests';
import { refGlob, refTargets } from '../../src/search/ref-scope';
import { snapshotOf } from '../../src/snapshot-of';
import { matchRef } from '../../src/target';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { resolveDeps } from '../../src/deps';
import { commitSha, readyState, seedRepository } from '../support/documents';

const WEB = 'https://github.com';
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

function pullState(number: number, overrides: Partial<NonNullable<RefState['pull']>> = {}, generation = 3): RefState {
  return {
    ...readyState(1, `refs/pull/${number}/head`, commitSha(`pull ${number}`), generation, 4),
    pull: {
      number,
      title: `Change ${number}`,
      state: 'open',
      merged: false,
      draft: false,
      author: 'octocat',
      baseRef: 'main',
      headSha: commitSha(`pull ${number}`),
      updatedAt: `2026-01-0${number % 9 || 1}T00:00:00.000Z`,
      closedAt: null,
      ...overrides,
    },
  };
}

describe('pull request URLs', () => {
  test.each([
    ['https://github.com/octo/api/pull/123', { fullName: 'octo/api', kind: 'repository', rest: [], ref: 'pull/123' }],
    ['github.com/octo/api/pull/123/checks', { fullName: 'octo/api', kind: 'repository', rest: [], ref: 'pull/123' }],
    ['https://github.com/octo/api/pull/123/files', { fullName: 'octo/api', kind: 'repository', rest: [], ref: 'pull/123' }],
    ['https://github.com/octo/api/pull/123/files/src/a%20b.ts', { fullName: 'octo/api', kind: 'path', rest: ['src', 'a b.ts'], ref: 'pull/123' }],
    ['https://github.com/octo/api/pull/123/commits/' + SHA, { fullName: 'octo/api', kind: 'repository', rest: [], ref: SHA }],
    ['https://ghe.example.com/octo/api/pull/9/files/docs', { fullName: 'octo/api', kind: 'path', rest: ['docs'], ref: 'pull/9' }],
    // Not a pull request number: the repository page, as before.
    ['https://github.com/octo/api/pull/abc', { fullName: 'octo/api', kind: 'repository', rest: [] }],
    ['https://github.com/octo/api/pulls', { fullName: 'octo/api', kind: 'repository', rest: [] }],
  ])('%s', (url, expected) => {
    expect(parseGithubUrl(url, 'https://ghe.example.com')).toEqual(expected);
  });

  test("a repository argument's pull request URL names its ref; other URLs and names none", () => {
    expect(refOfRepositoryUrl('https://github.com/octo/api/pull/12', WEB)).toBe('pull/12');
    expect(refOfRepositoryUrl(' github.com/octo/api/pull/12/files ', WEB)).toBe('pull/12');
    expect(refOfRepositoryUrl('https://github.com/octo/api', WEB)).toBeUndefined();
    expect(refOfRepositoryUrl('https://github.com/octo/api/blob/main/x.ts', WEB)).toBeUndefined();
    expect(refOfRepositoryUrl('octo/api', WEB)).toBeUndefined();
  });

  test('a commits tab without a sha is the pull request itself', () => {
    expect(parseGithubUrl('https://github.com/octo/api/pull/5/commits', WEB)?.ref).toBe('pull/5');
    expect(parseGithubUrl('https://github.com/octo/api/pull/5/commits/not-a-sha', WEB)?.ref).toBe('pull/5');
  });
});

describe('pull request refs', () => {
  const states = [readyState(1, 'refs/heads/main', commitSha('main'), 1, 3), pullState(12), pullState(7)];

  test('pull/N, pull/N/head and refs/pull/N/head name the head ref', () => {
    for (const input of ['pull/12', ' pull/12 ', 'pull/12/head', 'refs/pull/12/head']) expect(matchRef(states, input)?.ref).toBe('refs/pull/12/head');
    expect(matchRef(states, 'pull/13')).toBeUndefined();
    expect(matchRef(states, 'pull/')).toBeUndefined();
    expect(matchRef(states, 'refs/pull/12')).toBeUndefined();
  });

  test('a branch named like a pull request wins, as both show alike', () => {
    const withBranch = [...states, readyState(1, 'refs/heads/pull/12', commitSha('branch'), 1, 1)];
    expect(matchRef(withBranch, 'pull/12')?.ref).toBe('refs/heads/pull/12');
    expect(matchRef(withBranch, 'refs/pull/12/head')?.ref).toBe('refs/pull/12/head');
  });

  test('shortRef shows a pull request head as pull/N', () => {
    expect(shortRef('refs/pull/12/head')).toBe('pull/12');
    expect(shortRef('refs/pull/12/merge')).toBe('refs/pull/12/merge');
    expect(shortRef('refs/heads/main')).toBe('main');
  });

  test('ref globs: * within a folder of the name, ** across', () => {
    expect(refGlob('pull/*').test('pull/12')).toBe(true);
    expect(refGlob('pull/*').test('pull/12/head')).toBe(false);
    expect(refGlob('pull/*').test('xpull/12')).toBe(false);
    expect(refGlob('release/**').test('release/1.2/hotfix')).toBe(true);
    expect(refGlob('v1.*').test('v1.2')).toBe(true);
    expect(refGlob('v1.*').test('v1x2')).toBe(false);
    expect(refGlob('refs/pull/*/head').test('refs/pull/7/head')).toBe(true);
  });
});

describe('snapshots of a layered ref', () => {
  const underlay = { ref: 'refs/heads/main', generation: 4, shadowed: ['src/a.ts'] };

  test('carry the underlay at the served generation, and read an older one as stored', () => {
    const state = { ...pullState(3), underlay };
    expect(snapshotOf(state)).toEqual({ repositoryId: 1, ref: 'refs/pull/3/head', generation: 3, underlay });
    expect(snapshotOf(state, 2)).toEqual({ repositoryId: 1, ref: 'refs/pull/3/head', generation: 2 });
    expect(snapshotOf(readyState(1, 'refs/heads/main', commitSha('m'), 4, 1))).toEqual({ repositoryId: 1, ref: 'refs/heads/main', generation: 4 });
  });
});

describe('open pull requests', () => {
  test('newest updated first, closed ones left out, capped with a count', () => {
    const states = [pullState(1), pullState(5, { draft: true }), pullState(3, { state: 'closed', closedAt: '2026-01-04T00:00:00.000Z' }), pullState(4, { author: null })];
    const all = openPullRequests(states, 10);
    expect(all.pull_requests.map((p) => p.ref)).toEqual(['pull/5', 'pull/4', 'pull/1']);
    expect(all.pull_requests[0]).toMatchObject({ number: 5, draft: true, base_ref: 'main', title: 'Change 5', indexed: true });
    expect(all.pull_requests[1]?.author).toBeNull();
    expect(openPullRequests(states, 2)).toMatchObject({ pull_requests: [{ number: 5 }, { number: 4 }], pull_requests_omitted: 1 });
    expect(openPullRequests([{ ...pullState(2), commitSha: null }], 5).pull_requests[0]?.indexed).toBe(false);
  });
});

describe('search refs bounds', () => {
  test('a glob matching more than 20 refs is refused saying how to narrow it', async () => {
    const index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    const { repository } = await seedRepository(index, { id: 5, fullName: 'o/many', files: { 'a.ts': 'a\n' } });
    for (let n = 1; n <= 21; n += 1) await index.putRefState({ ...pullState(n, {}, 1), repositoryId: 5 });
    const deps = resolveDeps({ index });
    expect((await refTargets(deps, repository, ['main', 'pull/1*'])).map((t) => shortRef(t.snapshot.ref))).toEqual(['main', ...[1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map((n) => `pull/${n}`)]);
    await expect(refTargets(deps, repository, ['pull/*'])).rejects.toThrow(/refs: pull\/\* match more than 20 refs of o\/many, at most 20 a call: name fewer, or narrow a glob/);
    await index.close();
  });
});
