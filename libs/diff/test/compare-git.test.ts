/**
 * The files between two commits equal `git diff -M base...head` (the change from the merge base):
 * the same files in the same order, statuses, previous paths of renames, counts, binary flags and
 * hunks, over pushes of generated edits, exact and edited renames, several files with one name,
 * deletions, binary files, CRLF, and a head on a branch that moved on after it forked.
 */
import { diffPair, pairTrees, type FileChange } from '@gitdex/diff';
import { newRepo, type Repo, seeded } from '../../../test/support/git-oracle/history';

interface GitFile {
  status: string;
  path: string;
  previousPath?: string;
  additions: number;
  deletions: number;
  binary: boolean;
  patch?: string;
}

function gitCompare(repo: Repo, base: string, head: string, context: number): GitFile[] {
  const range = `${base}...${head}`;
  const statuses = repo.run(['diff', '-M', '--name-status', '-z', range]).split('\u0000').filter(Boolean);
  const numstat = repo.run(['diff', '-M', '--numstat', '-z', range]).split('\u0000');
  const patches = repo
    .run(['diff', '-M', `-U${context}`, range])
    .split(/^diff --git /m)
    .slice(1);
  const files: GitFile[] = [];
  const names = { A: 'added', D: 'removed', M: 'modified', R: 'renamed' } as Record<string, string>;
  for (let i = 0, n = 0; i < statuses.length; n++) {
    const code = statuses[i++]!;
    const renamed = code.startsWith('R');
    const previousPath = renamed ? statuses[i++] : undefined;
    const path = statuses[i++]!;
    const section = patches[n]!;
    const at = section.indexOf('\n@@');
    const binary = /^Binary files .* differ$/m.test(section);
    files.push({
      status: names[code[0]!]!,
      path,
      ...(previousPath ? { previousPath } : {}),
      additions: 0,
      deletions: 0,
      binary,
      ...(binary ? {} : { patch: at === -1 ? '' : section.slice(at + 1) }),
    });
  }
  // numstat -z: "add\tdel\tpath\0" or, for a rename, "add\tdel\t\0old\0new\0".
  for (let i = 0, n = 0; i < numstat.length && n < files.length; n++) {
    const [added, deleted, path] = numstat[i++]!.split('\t') as [string, string, string];
    if (path === '') i += 2;
    files[n]!.additions = added === '-' ? 0 : Number(added);
    files[n]!.deletions = deleted === '-' ? 0 : Number(deleted);
  }
  return files;
}

async function ourCompare(repo: Repo, base: string, head: string, context: number): Promise<GitFile[]> {
  const history = repo.history();
  const mergeBase = repo.run(['merge-base', base, head]).trim();
  const pairs = await pairTrees(await history.tree(mergeBase), await history.tree(repo.run(['rev-parse', head]).trim()), history.read);
  const changes: FileChange[] = await Promise.all(pairs.map((p) => diffPair(p, history.read, context)));
  return changes.map((c) => ({
    status: c.status,
    path: c.path,
    ...(c.previousPath ? { previousPath: c.previousPath } : {}),
    additions: c.additions,
    deletions: c.deletions,
    binary: c.binary,
    ...(c.patch === undefined ? {} : { patch: c.patch }),
  }));
}

function body(rand: () => number, lines: number, salt: string): string {
  return Array.from({ length: lines }, (_, i) => (rand() < 0.2 ? '}' : `${salt} ${i} ${Math.floor(rand() * 1000)}`)).join('\n') + '\n';
}

function mutated(rand: () => number, text: string): string {
  const lines = text.split('\n');
  for (let k = 1 + Math.floor(rand() * 3); k > 0; k--) {
    const at = Math.floor(rand() * lines.length);
    if (rand() < 0.5) lines.splice(at, 1, `edited ${Math.floor(rand() * 1e6)}`);
    else lines.splice(at, 0, `added ${Math.floor(rand() * 1e6)}`);
  }
  return lines.join('\n');
}

describe('compare against git diff -M base...head', () => {
  let repo: Repo;
  const pushes: [string, string][] = [];

  beforeAll(() => {
    repo = newRepo();
    const rand = seeded(4343);
    const files: Record<string, string> = {};
    for (let i = 0; i < 14; i++) files[`src/m${i}.ts`] = body(rand, 10 + Math.floor(rand() * 40), `m${i}`);
    files['docs/index.md'] = body(rand, 20, 'doc');
    files['docs/api/index.md'] = body(rand, 20, 'api');
    files['logo.png'] = '\u0000PNG' + body(rand, 5, 'png');
    files['win.txt'] = body(rand, 12, 'crlf').replace(/\n/g, '\r\n');
    let previous = repo.commit(files, 'start');
    const current = { ...files };
    for (let p = 0; p < 6; p++) {
      const change: Record<string, string | null> = {};
      const paths = Object.keys(current).sort();
      for (const path of paths) {
        const r = rand();
        if (r < 0.25) change[path] = mutated(rand, current[path]!);
        else if (r < 0.3) change[path] = null;
        else if (r < 0.38) {
          change[path] = null;
          change[`moved/${p}/${path.split('/').pop()}`] = rand() < 0.5 ? current[path]! : mutated(rand, current[path]!);
        }
      }
      if (p % 2 === 0) change[`new/${p}.txt`] = body(rand, 8, `new${p}`);
      if (p === 3) change['logo.png'] = '\u0000PNG changed';
      const head = repo.commit(change, `push ${p}`);
      for (const [path, content] of Object.entries(change)) {
        if (content === null) delete current[path];
        else current[path] = content;
      }
      pushes.push([previous, head]);
      previous = head;
    }
    pushes.push([pushes[0]![0], previous]);
    // A head whose base branch moved on after it forked: only the head's side shows.
    repo.run(['checkout', '-q', '-b', 'topic', pushes[2]![1]]);
    const topic = repo.commit({ 'src/m1.ts': 'topic\n', 'docs/index.md': null }, 'topic');
    pushes.push(['main', topic]);
  });

  afterAll(() => repo.close());

  it.each([0, 3])('lists the files, statuses, renames, counts and hunks git lists (context %i)', async (context) => {
    for (const [base, head] of pushes) {
      const theirs = gitCompare(repo, base, head, context);
      expect({ base, head, files: await ourCompare(repo, base, head, context) }).toEqual({ base, head, files: theirs });
    }
    const statuses = new Set(pushes.flatMap(([b, h]) => gitCompare(repo, b, h, 0).map((f) => f.status)));
    expect([...statuses].sort()).toEqual(['added', 'modified', 'removed', 'renamed']);
  });
});
