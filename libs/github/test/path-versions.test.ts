// The push query's answer as history reads it: a missing commit makes the whole answer unusable
// (the caller reads each commit from the commit endpoint), a blob's text is kept only when it is
// exactly the blob (its git sha checks), and GitHub's integer mode is git's octal.
import { createHash } from 'node:crypto';
import { pathVersionsQuery, readPathVersions } from '../src/path-versions';

const sha = (text: string) =>
  createHash('sha1')
    .update(`blob ${Buffer.byteLength(text)}\0`)
    .update(text)
    .digest('hex');

describe('path versions of a push', () => {
  test('paths and oids travel as variables, and only the commits asked for bytes select text', () => {
    const { query, variables } = pathVersionsQuery(['b'.repeat(40), 'c'.repeat(40)], ['a "quoted" path.txt'], new Set(['c'.repeat(40)]));
    expect(query).not.toContain('quoted');
    expect(variables).toEqual({ c0: 'b'.repeat(40), c1: 'c'.repeat(40), p0: 'a "quoted" path.txt' });
    expect(query.match(/text/g)).toHaveLength(1);
  });

  test('keeps exact text, drops text that is not the blob, and reads the mode as octal', () => {
    const good = 'hello\n';
    const answer = {
      repository: {
        c0: {
          changedFilesIfAvailable: 2,
          additions: 3,
          deletions: 1,
          f0: { oid: sha(good), mode: 0o100644, type: 'blob', object: { text: good, isTruncated: false } },
          f1: { oid: sha('\ufeffbom\n'), mode: 0o100755, type: 'blob', object: { text: 'bom\n', isTruncated: false } },
          f2: null,
        },
      },
    };
    const read = readPathVersions(answer, ['x'.repeat(40)], ['a.txt', 'run.sh', 'gone.txt']);
    const files = read?.get('x'.repeat(40))?.files;
    expect(files?.get('a.txt')).toEqual({ sha: sha(good), mode: '100644', type: 'blob', content: Buffer.from(good) });
    expect(files?.get('run.sh')).toEqual({ sha: sha('\ufeffbom\n'), mode: '100755', type: 'blob' });
    expect(files?.has('gone.txt')).toBe(false);
    expect(readPathVersions({ repository: { c0: null } }, ['x'.repeat(40)], ['a.txt'])).toBeNull();
  });
});
