// Small pure pieces of the GitHub stand-in: signatures, base64 layout, ids, tree truncation.
import { parseCommit, isoWithOffset } from '../github-standin/git-objects';
import { isSafeRefName } from '../github-standin/git';
import { nodeId } from '../github-standin/repo-json';
import { deterministicId } from '../github-standin/repo-store';
import { githubBase64, truncateEntries } from '../github-standin/routes-git';
import { signBody } from '../github-standin/webhooks';

describe('github stand-in encodings', () => {
  it('signs bodies like GitHub (example from the webhook docs)', () => {
    const { sha256, sha1 } = signBody("It's a Secret to Everybody", 'Hello, World!');
    expect(sha256).toBe('sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
    expect(sha1).toMatch(/^sha1=[0-9a-f]{40}$/);
  });

  it('wraps blob base64 at 60 characters with a trailing newline, like GitHub', () => {
    const data = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
    const text = githubBase64(data);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.every((l) => l.length <= 60)).toBe(true);
    expect(lines[0]).toHaveLength(60);
    expect(Buffer.from(text, 'base64').equals(data)).toBe(true);
    expect(githubBase64(Buffer.alloc(0))).toBe('');
  });

  it('derives stable ids and legacy node ids', () => {
    expect(deterministicId('octo/hello')).toBe(deterministicId('OCTO/Hello'));
    expect(deterministicId('octo/hello')).not.toBe(deterministicId('octo/other'));
    expect(String(deterministicId('octo/hello'))).toHaveLength(9);
    expect(nodeId('Repository', 186853002)).toBe('MDEwOlJlcG9zaXRvcnkxODY4NTMwMDI=');
    expect(nodeId('User', 21031067)).toBe('MDQ6VXNlcjIxMDMxMDY3');
  });

  it('truncates tree listings by entry count and by size', () => {
    const entries = Array.from({ length: 10 }, (_, i) => ({ path: `f${i}` }));
    expect(truncateEntries(entries, 3, 1e9)).toEqual({ entries: entries.slice(0, 3), truncated: true });
    expect(truncateEntries(entries, 100, 1e9)).toEqual({ entries, truncated: false });
    expect(truncateEntries(entries, 10, 1e9).truncated).toBe(false);
    const perEntry = JSON.stringify(entries[0]).length + 1;
    expect(truncateEntries(entries, 100, perEntry * 4).entries).toHaveLength(4);
  });

  it('parses raw commits, including signed ones, and formats their dates', () => {
    const raw = [
      'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904',
      'parent 1111111111111111111111111111111111111111',
      'author Ada Lovelace <ada@example.com> 1700000000 +0130',
      'committer Grace <grace@example.com> 1700000100 -0500',
      'gpgsig -----BEGIN PGP SIGNATURE-----',
      ' abc',
      ' -----END PGP SIGNATURE-----',
      '',
      'Subject line',
      '',
      'Body ünïcode',
      '',
    ].join('\n');
    const commit = parseCommit('a'.repeat(40), raw);
    expect(commit.parents).toEqual(['1'.repeat(40)]);
    expect(commit.author).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', epoch: 1700000000, tz: '+0130' });
    expect(commit.message).toBe('Subject line\n\nBody ünïcode\n');
    expect(isoWithOffset(commit.author)).toBe('2023-11-14T23:43:20+01:30');
    expect(isoWithOffset(commit.committer)).toBe('2023-11-14T17:15:00-05:00');
  });

  it('accepts branch names git accepts and rejects revision syntax', () => {
    for (const ok of ['main', 'feature/x', 'refs/heads/été', 'v1.0']) expect(isSafeRefName(ok)).toBe(true);
    for (const bad of ['-x', 'a..b', 'HEAD~1', 'main^{tree}', 'a b', 'x@{1}', 'a:b', '', 'x.lock']) expect(isSafeRefName(bad)).toBe(false);
  });
});
