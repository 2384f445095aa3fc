/**
 * blame equals `git blame --line-porcelain`, line for line (commit, line in that commit, path,
 * boundary), on repositories built from real commits: generated edits and moved blocks over many
 * commits, a rename with edits, a deletion and re-creation, merges (clean and with a resolution
 * of their own), CRLF and no final newline; and in a shallow clone, where lines older than the
 * history held go to the oldest commit as a boundary.
 */
import { blame, type BlameHistory, BlamePathMissing, treeBlameHistory } from '@gitdex/diff';
import { LineBoundMemo } from '../../../src/tools/blame-memo';
import { gitBlame } from '../../../../../test/support/git-oracle/blame';
import { historyOf, newRepo, type Repo, seeded } from '../../../../../test/support/git-oracle/history';
import { gitIn } from '../../../../../test/support/git-oracle/git';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const VOCAB = ['}', '', '{', '\treturn x;', 'int f() {', '  if (a) {', '  }', '# note', 'foo();', '    bar();'];

function edit(rand: () => number, lines: string[], serial: () => string): string[] {
  const out = [...lines];
  const fresh = (n: number): string[] => Array.from({ length: n }, () => (rand() < 0.4 ? VOCAB[Math.floor(rand() * VOCAB.length)]! : serial()));
  for (let k = 1 + Math.floor(rand() * 4); k > 0; k--) {
    const at = Math.floor(rand() * (out.length + 1));
    const r = rand();
    if (r < 0.35) out.splice(at, 0, ...fresh(1 + Math.floor(rand() * 4)));
    else if (r < 0.6) out.splice(at, 1 + Math.floor(rand() * 3));
    else if (r < 0.85) out.splice(at, 1, ...fresh(1 + Math.floor(rand() * 2)));
    else out.splice(Math.floor(rand() * out.length), 0, ...out.splice(at, 4));
  }
  return out;
}

const text = (lines: string[], eol = '\n', finalNewline = true): string => lines.join(eol) + (finalNewline && lines.length > 0 ? eol : '');

/**
 * One memo for every blame of the file, as the reader keeps one: a blame reads the versions
 * computed by earlier ones. The shallow clone's commits have the same shas with less history
 * below them, so its keys differ, as the reader's do.
 */
const memo = new LineBoundMemo(Number.MAX_SAFE_INTEGER);
let reads = 0;

function memoized(repo: Pick<Repo, 'run' | 'runBytes'>, place: string): BlameHistory {
  const history = treeBlameHistory(historyOf(repo));
  return { ...history, key: (sha) => `${place}:${sha}`, read: (blob) => (reads++, history.read(blob)) };
}

async function expectSameAsGit(repo: Pick<Repo, 'run' | 'runBytes'>, rev: string, path: string, place = 'full'): Promise<void> {
  const sha = repo.run(['rev-parse', rev]).trim();
  const ours = await blame(memoized(repo, place), sha, path, memo);
  const theirs = gitBlame(repo, sha, path);
  expect({ rev, path, lines: ours.map((l) => ({ ...l })) }).toEqual({ rev, path, lines: theirs.map((l) => ({ commit: l.commit, path: l.path, line: l.line, boundary: l.boundary })) });
}

describe('blame against git blame', () => {
  let repo: Repo;
  const checkpoints: string[] = [];

  beforeAll(() => {
    repo = newRepo();
    const rand = seeded(43);
    let n = 0;
    const serial = (): string => `line ${++n}`;
    let a = Array.from({ length: 40 }, serial);
    let b = Array.from({ length: 25 }, serial);
    let c = Array.from({ length: 12 }, serial);
    repo.commit({ 'src/a.c': text(a), 'b.txt': text(b, '\r\n'), 'c.md': text(c, '\n', false) }, 'start');
    for (let i = 0; i < 8; i++) {
      a = edit(rand, a, serial);
      if (i % 2 === 0) b = edit(rand, b, serial);
      if (i % 3 === 0) c = edit(rand, c, serial);
      repo.commit({ 'src/a.c': text(a), 'b.txt': text(b, '\r\n'), 'c.md': text(c, '\n', i % 2 === 0) }, `edit ${i}`);
    }
    checkpoints.push('HEAD');
    // A rename with edits.
    a = edit(rand, a, serial);
    repo.commit({ 'src/a.c': null, 'lib/a.c': text(a) }, 'move a.c to lib with edits');
    // A branch that edits one file while main edits another, merged cleanly.
    repo.run(['checkout', '-q', '-b', 'side']);
    b = edit(rand, b, serial);
    repo.commit({ 'b.txt': text(b, '\r\n') }, 'side edits b');
    repo.run(['checkout', '-q', 'main']);
    c = edit(rand, c, serial);
    repo.commit({ 'c.md': text(c) }, 'main edits c');
    repo.dated(['merge', '-q', '--no-ff', '-m', 'merge side', 'side']);
    checkpoints.push('HEAD');
    // A merge whose resolution adds lines of its own (an evil merge).
    repo.run(['checkout', '-q', '-b', 'side2']);
    a = [...a.slice(0, 5), serial(), ...a.slice(5)];
    repo.commit({ 'lib/a.c': text(a) }, 'side2 edits the top of a.c');
    repo.run(['checkout', '-q', 'main']);
    const mainA = [...a.slice(0, 5), ...a.slice(6), serial()];
    repo.commit({ 'lib/a.c': text(mainA) }, 'main edits the bottom of a.c');
    repo.dated(['merge', '-q', '--no-ff', '--no-commit', 'side2']);
    const merged = [...a, serial()];
    repo.commit({ 'lib/a.c': text([...merged.slice(0, 3), serial(), ...merged.slice(3)]) }, 'merge side2 with a fix');
    // A merge that takes the second parent's file whole, where the first parent has the same
    // line from a commit of its own: git hands every line to the parent with the same blob.
    repo.run(['checkout', '-q', '-b', 'side3']);
    b = [...b, 'shared line', serial()];
    repo.commit({ 'b.txt': text(b, '\r\n') }, 'side3 adds a shared line');
    repo.run(['checkout', '-q', 'main']);
    repo.commit({ 'b.txt': text([...b.slice(0, -2), 'shared line'], '\r\n') }, 'main adds the same line');
    repo.dated(['merge', '-q', '--no-commit', '-s', 'ours', 'side3']);
    repo.commit({ 'b.txt': text(b, '\r\n') }, 'merge side3 taking its b.txt');
    // A deleted file created again.
    repo.commit({ 'c.md': null }, 'drop c');
    repo.commit({ 'c.md': text(c.slice(2)) }, 'c again');
    for (let i = 0; i < 4; i++) {
      const next = edit(rand, [...merged], serial);
      repo.commit({ 'lib/a.c': text(next) }, `late edit ${i}`);
    }
    checkpoints.push('HEAD');
  });

  afterAll(() => repo.close());

  it('names the commit git names for every line, across edits, moves, a rename and merges', async () => {
    await expectSameAsGit(repo, 'HEAD', 'lib/a.c');
    await expectSameAsGit(repo, 'HEAD', 'b.txt');
    await expectSameAsGit(repo, 'HEAD', 'c.md');
    // Blamed on the way to HEAD: kept with its lines, so nothing is read again.
    reads = 0;
    await expectSameAsGit(repo, 'HEAD~4', 'lib/a.c');
    expect(reads).toBe(0);
    await expectSameAsGit(repo, 'HEAD~8', 'c.md');
    await expectSameAsGit(repo, 'side', 'b.txt');
  });

  it('gives lines older than a shallow history to its oldest commits as boundaries, as git does in a shallow clone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitdex-shallow-'));
    try {
      execFileSync('git', ['clone', '-q', '--depth', '6', '--branch', 'main', `file://${repo.dir}`, dir], { stdio: 'ignore' });
      const clone = gitIn(dir);
      for (const path of ['lib/a.c', 'b.txt']) await expectSameAsGit(clone, 'HEAD', path, 'shallow');
      const boundary = (await blame(treeBlameHistory(historyOf(clone)), clone.run(['rev-parse', 'HEAD']).trim(), 'b.txt')).filter((l) => l.boundary);
      expect(boundary.length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says so when the file is not there at that commit', async () => {
    const head = repo.run(['rev-parse', 'HEAD']).trim();
    await expect(blame(treeBlameHistory(repo.history()), head, 'src/a.c')).rejects.toBeInstanceOf(BlamePathMissing);
  });
});
