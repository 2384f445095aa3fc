import type { RefState } from '@gitdex/contracts';
import { ChangedPaths, recentCommitsAdded, recentCommitsAfter } from '../src/served-commits';

const sha = (label: string) => label.padEnd(40, '0');

function state(commitSha: string | null, recentCommits?: string[]): RefState {
  return {
    repositoryId: 1,
    ref: 'refs/heads/main',
    commitSha,
    treeSha: null,
    generation: 1,
    indexedAt: null,
    committedAt: null,
    fileCount: 0,
    status: 'ready',
    lastError: null,
    attempts: 0,
    pendingCommitSha: null,
    pendingSince: null,
    sourceReceivedAt: null,
    ...(recentCommits ? { recentCommits } : {}),
  };
}

describe('what a flip records for readers waiting on their own push', () => {
  it('a push: its commits newest first, before, the commit served before and what that knew; the head itself left out', () => {
    const pushed = { commits: [sha('b1'), sha('b2'), sha('b3')], before: sha('a'), forced: false };
    expect(recentCommitsAfter(state(sha('a'), [sha('old')]), { sha: sha('b3'), parentShas: [sha('b2')] }, pushed)).toEqual([sha('b2'), sha('b1'), sha('a'), sha('old')]);
  });

  it('a forced push forgets what came before; a backfill knows only the parents', () => {
    const forced = { commits: [sha('c1'), sha('c2')], before: sha('a'), forced: true };
    expect(recentCommitsAfter(state(sha('a'), [sha('old')]), { sha: sha('c2'), parentShas: [sha('c1')] }, forced)).toEqual([sha('c1')]);
    expect(recentCommitsAfter(state(sha('a'), [sha('old')]), { sha: sha('d'), parentShas: [sha('p')] }, undefined)).toEqual([sha('p')]);
  });

  it('a push whose head is already served adds its commits once', () => {
    const pushed = { commits: [sha('x1'), sha('x2')], before: sha('a'), forced: false };
    expect(recentCommitsAdded(state(sha('x2'), [sha('a')]), pushed)).toEqual([sha('x1'), sha('a')]);
    expect(recentCommitsAdded(state(sha('x2'), [sha('x1'), sha('a')]), pushed)).toBeNull();
  });

  it('changed paths: the first hundred kept, every one counted', () => {
    const changed = new ChangedPaths();
    for (let i = 0; i < 150; i += 1) changed.note(`f${i}`);
    expect(changed.paths).toHaveLength(100);
    expect(changed.count).toBe(150);
  });
});
