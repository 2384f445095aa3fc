import type { EventEnvelope } from '@gitdex/ports';
import { PortError } from '@gitdex/ports';
import { coalesce } from '../src/worker';
import { RefSelection } from '../src/ref-selection';
import { DEFAULT_RETRY_POLICY, delayBeforeRetry } from '../src/retry-policy';
import { submodulePaths } from '../src/submodules';

const repo = { id: 1, fullName: 'o/r' };
const push = (ref: string, after: string): EventEnvelope => ({
  event: { kind: 'push', eventId: after, repository: repo, receivedAt: new Date(0).toISOString(), ref, before: '0'.repeat(40), after: after.repeat(40), created: false, deleted: false, forced: false },
  headers: {},
  position: after,
});

describe('coalesce', () => {
  it('keeps the last event of each repository and ref, in order', () => {
    const batch = [push('refs/heads/main', 'a'), push('refs/heads/dev', 'b'), push('refs/heads/main', 'c')];
    expect(coalesce(batch).map((e) => e.position)).toEqual(['b', 'c']);
  });

  it('keeps one event per pull request, never one for all of a repository', () => {
    const pull = (number: number, position: string): EventEnvelope => ({
      event: {
        kind: 'pull_request',
        eventId: position,
        repository: repo,
        receivedAt: new Date(0).toISOString(),
        action: 'synchronize',
        pull: { number, title: 't', state: 'open', merged: false, draft: false, author: null, baseRef: 'main', headSha: 'a'.repeat(40), updatedAt: new Date(0).toISOString(), closedAt: null },
      },
      headers: {},
      position,
    });
    expect(coalesce([pull(1, 'a'), pull(2, 'b'), pull(1, 'c')]).map((e) => e.position)).toEqual(['b', 'c']);
  });
});

describe('RefSelection', () => {
  it('indexes the default branch by default', () => {
    const refs = new RefSelection(['default']);
    expect(refs.includes('refs/heads/main', 'main')).toBe(true);
    expect(refs.includes('refs/heads/dev', 'main')).toBe(false);
    expect(refs.includes('refs/tags/v1', 'main')).toBe(false);
    expect(refs.select('main')).toEqual(['refs/heads/main']);
    expect(refs.needsBranchList).toBe(false);
  });

  it('takes branch globs', () => {
    const refs = new RefSelection(['default', 'release/*']);
    expect(refs.includes('refs/heads/release/1.0', 'main')).toBe(true);
    expect(refs.select('main', ['main', 'release/1.0', 'feature/x'])).toEqual(['refs/heads/main', 'refs/heads/release/1.0']);
  });
});

describe('delayBeforeRetry', () => {
  it('honours what GitHub asked for', () => {
    expect(delayBeforeRetry(new PortError('RATE_LIMITED', 'x', { retryAfterMs: 3000 }), 1, DEFAULT_RETRY_POLICY)).toBe(3250);
  });

  it('backs off exponentially, capped', () => {
    const mid = () => 0.5;
    expect(delayBeforeRetry(new Error('x'), 1, DEFAULT_RETRY_POLICY, mid)).toBe(375);
    expect(delayBeforeRetry(new Error('x'), 3, DEFAULT_RETRY_POLICY, mid)).toBe(1500);
    expect(delayBeforeRetry(new Error('x'), 20, DEFAULT_RETRY_POLICY, mid)).toBe(22500);
  });
});

describe('submodulePaths', () => {
  it('reads the paths of .gitmodules', () => {
    const text = '[submodule "lib"]\n\tpath = deps/lib\n\turl = https://example.com/lib.git\n[submodule "x"]\n  path = "vendor/x y"\n';
    expect(submodulePaths(text)).toEqual(['deps/lib', 'vendor/x y']);
  });
});
