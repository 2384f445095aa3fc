import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { totalBytes } from '../data/files';
import type { Corpus } from '../data/corpora';
import { cloneShared, commitSnapshot, headOf, initBare } from '../data/git-repo';

export const OWNER = 'bench';

/** A repository the stand-in serves: <root>/bench/<name>, a bare git repository. */
export interface BenchRepo {
  name: string;
  fullName: string;
  dir: string;
  corpus: Corpus;
  head: string;
  /** A path known to be in the first commit: readable once the first index is done. */
  probePath: string;
}

export async function createRepo(root: string, name: string, corpus: Corpus): Promise<BenchRepo> {
  const dir = join(root, OWNER, name);
  await initBare(dir);
  // Files that went away since they were listed (an npm install elsewhere) are left out.
  corpus.files = corpus.files.filter((f) => existsSync(f.abs));
  corpus.bytes = totalBytes(corpus.files);
  const head = await commitSnapshot(dir, corpus.files, `${corpus.description}\n`);
  return { name, fullName: `${OWNER}/${name}`, dir, corpus, head, probePath: probeOf(corpus) };
}

/** The same content under another name (objects shared): a new repository id, so a full index again. */
export async function copyRepo(root: string, from: BenchRepo, name: string): Promise<BenchRepo> {
  const dir = join(root, OWNER, name);
  await cloneShared(from.dir, dir);
  return { ...from, name, fullName: `${OWNER}/${name}`, dir, head: await headOf(dir) };
}

/** A small text file of the corpus (the first read_file that works tells the index is there). */
function probeOf(corpus: Corpus): string {
  const text = corpus.files.find((f) => /\.(json|md|js|ts|txt)$/.test(f.path) && f.size > 0 && f.size < 64 * 1024 && !/(^|\/)(dist|build|node_modules|vendor)\//.test(f.path));
  return (text ?? corpus.files[0]!).path;
}
