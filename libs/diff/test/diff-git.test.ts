/**
 * The line diff equals `git diff --no-index -U<n>` from the first `@@`, byte for byte, on
 * generated edits (inserts, deletes, replacements, moved blocks) over lines that repeat (`}`,
 * blank lines: the cases where git slides hunks and the indent heuristic chooses), at several
 * context widths; with CRLF, no final newline, function lines in headers (long and multibyte
 * ones cut as git cuts them), empty files, and binary files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffFile } from '@gitdex/diff';
import { seeded } from '../../../test/support/git-oracle/history';
import { type Git, tempGit } from '../../../test/support/git-oracle/git';

const VOCAB = ['}', '', '{', '  return x;', 'int f() {', '\tif (a) {', '\t}', '  x++;', 'end', '# c', 'foo();', '    bar();'];
const LONG = 'static void ' + 'a_really_long_function_name_'.repeat(4) + '(int x) {';
const UTF8 = 'función_' + 'ñ'.repeat(40) + '() {';

function generate(rand: () => number, count: number): [Buffer, Buffer][] {
  const pick = (): string => {
    const r = rand();
    if (r < 0.03) return LONG;
    if (r < 0.05) return UTF8;
    if (r < 0.55) return VOCAB[Math.floor(rand() * VOCAB.length)]!;
    return `  value${Math.floor(rand() * 50)};`;
  };
  const lines = (n: number): string[] => Array.from({ length: n }, pick);
  const cases: [Buffer, Buffer][] = [];
  for (let i = 0; i < count; i++) {
    const base = lines(Math.floor(rand() * (i % 10 === 0 ? 400 : 50)));
    const next = [...base];
    for (let k = 1 + Math.floor(rand() * 6); k > 0; k--) {
      const at = Math.floor(rand() * (next.length + 1));
      const r = rand();
      if (r < 0.3) next.splice(at, 0, ...lines(1 + Math.floor(rand() * 5)));
      else if (r < 0.55) next.splice(at, 1 + Math.floor(rand() * 4));
      else if (r < 0.8) next.splice(at, 1, ...lines(1 + Math.floor(rand() * 3)));
      else next.splice(Math.floor(rand() * next.length), 0, ...next.splice(at, 3));
    }
    const eol = i % 7 === 0 ? '\r\n' : '\n';
    const join = (l: string[], final: boolean): Buffer => Buffer.from(l.join(eol) + (final && l.length ? eol : ''));
    cases.push([join(base, rand() < 0.8), join(next, rand() < 0.8)]);
  }
  cases.push([Buffer.from(''), Buffer.from('a\nb\n')], [Buffer.from('a\nb'), Buffer.from('')]);
  cases.push([Buffer.from('text\n'), Buffer.from('text\u0000binary\n')]);
  return cases;
}

/** git's patches for every pair, from one `git diff --no-index` run over two folders. */
function gitPatches(git: Git, count: number, context: number): Map<number, { patch?: string; binary: boolean }> {
  const out = git.run(['diff', '--no-index', `-U${context}`, 'a', 'b']);
  const result = new Map<number, { patch?: string; binary: boolean }>();
  for (const section of out.split(/^diff --git /m).slice(1)) {
    const index = Number(/^a\/a\/f(\d+) /.exec(section)![1]);
    const at = section.indexOf('\n@@');
    if (/^Binary files .* differ$/m.test(section)) result.set(index, { binary: true });
    else result.set(index, { binary: false, patch: at === -1 ? '' : section.slice(at + 1) });
  }
  expect(result.size).toBeLessThanOrEqual(count);
  return result;
}

describe('line diff against git diff', () => {
  let git: Git;
  let cases: [Buffer, Buffer][];

  beforeAll(() => {
    git = tempGit('gitdex-diff-');
    cases = generate(seeded(1043), 160);
    mkdirSync(join(git.dir, 'a'));
    mkdirSync(join(git.dir, 'b'));
    cases.forEach(([a, b], i) => {
      writeFileSync(join(git.dir, 'a', `f${i}`), a);
      writeFileSync(join(git.dir, 'b', `f${i}`), b);
    });
  });

  afterAll(() => git.close());

  it.each([0, 3, 10])('prints the hunks git prints with %i lines of context', (context) => {
    const theirs = gitPatches(git, cases.length, context);
    let compared = 0;
    cases.forEach(([a, b], i) => {
      const ours = diffFile(a, b, context);
      const want = theirs.get(i) ?? { binary: false, patch: '' };
      expect({ i, binary: ours.binary, patch: ours.patch }).toEqual({ i, binary: want.binary, patch: want.patch });
      compared += ours.patch ? 1 : 0;
    });
    expect(compared).toBeGreaterThan(100);
  });

  it('counts additions and deletions as git --numstat does', () => {
    const rows = git.run(['diff', '--no-index', '--numstat', 'a', 'b']).trim().split('\n');
    for (const row of rows) {
      const [added, deleted, name] = row.split('\t') as [string, string, string];
      const i = Number(/f(\d+)/.exec(name)![1]);
      const ours = diffFile(cases[i]![0], cases[i]![1], 3);
      if (added === '-') expect(ours.binary).toBe(true);
      else expect([ours.additions, ours.deletions]).toEqual([Number(added), Number(deleted)]);
    }
  });
});
