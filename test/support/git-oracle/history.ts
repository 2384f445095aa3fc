/**
 * Test support: repositories built from real commits with the `git` CLI, and the history the
 * blame and compare cores read, taken from such a repository (a shallow clone holds only part of
 * it, the way the index holds only the last commits of a ref).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BlameCommit, TreeHistory } from '@gitdex/diff';
import type { Tree, TreeEntry } from '@gitdex/diff';
import { type Git, tempGit } from './git';

export interface Repo extends Git {
  /** writes (string or bytes) and deletes (null) files, commits them all, returns the sha */
  commit(files: Record<string, string | Uint8Array | null>, message?: string): string;
  /** runs a git command that commits (merge, cherry-pick) at the next tick of the repository's clock */
  dated(args: string[]): string;
  history(): TreeHistory & { trees: Map<string, Tree> };
}

export function newRepo(prefix = 'gitdex-history-'): Repo {
  const git = tempGit(prefix);
  git.run(['init', '-q', '-b', 'main']);
  let clock = 1_700_000_000;
  const repo: Repo = {
    ...git,
    commit(files, message = 'change') {
      for (const [path, content] of Object.entries(files)) {
        const full = join(git.dir, path);
        if (content === null) rmSync(full, { force: true });
        else {
          mkdirSync(dirname(full), { recursive: true });
          writeFileSync(full, content);
        }
      }
      git.run(['add', '-A']);
      return repo.dated(['commit', '-q', '--allow-empty', '-m', message]);
    },
    dated(args) {
      clock += 60;
      const date = `${clock} +0000`;
      git.run(args, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
      return git.run(['rev-parse', 'HEAD']).trim();
    },
    history: () => historyOf(git),
  };
  return repo;
}

export function historyOf(git: Pick<Git, 'run' | 'runBytes'>): TreeHistory & { trees: Map<string, Tree> } {
  const commits = new Map<string, BlameCommit | undefined>();
  const trees = new Map<string, Tree>();
  const blobs = new Map<string, Uint8Array>();
  return {
    trees,
    commit(sha) {
      if (!commits.has(sha)) {
        let info: BlameCommit | undefined;
        try {
          const parents = git.run(['show', '-s', '--format=%P', sha]).trim();
          info = { parents: parents.split(' ').filter(Boolean) };
        } catch {
          info = undefined;
        }
        commits.set(sha, info);
      }
      return Promise.resolve(commits.get(sha));
    },
    tree(sha) {
      let tree = trees.get(sha);
      if (!tree) {
        const map = new Map<string, TreeEntry>();
        for (const row of git.run(['ls-tree', '-r', '-z', sha]).split('\u0000')) {
          if (!row) continue;
          const [meta, path] = row.split('\t') as [string, string];
          const [mode, type, object] = meta.split(' ') as [string, string, string];
          if (type === 'blob') map.set(path, { sha: object, mode });
        }
        tree = map;
        trees.set(sha, tree);
      }
      return Promise.resolve(tree);
    },
    read(sha) {
      let bytes = blobs.get(sha);
      if (!bytes) {
        bytes = new Uint8Array(git.runBytes(['cat-file', 'blob', sha]));
        blobs.set(sha, bytes);
      }
      return Promise.resolve(bytes);
    },
  };
}

/** A seeded generator, so that a failing case can be run again. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) / 0x1000000;
  };
}
