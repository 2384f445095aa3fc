import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KINDS, type HeldOutCase } from './rules';

/** Where the frozen held-out suggestion set lives (committed data: paths and cases per tree). */
export const HELD_OUT_DIR = join(__dirname, 'data');

export interface HeldOutManifest {
  frozenAt: string;
  perKind: number;
  seed: number;
  trees: { name: string; source: string; paths: number; cases: number }[];
}

export interface HeldOutTree {
  name: string;
  source: string;
  paths: string[];
  cases: HeldOutCase[];
}

/** The frozen trees and their cases, as committed; checked for shape so a damaged file is a clear error. */
export function loadHeldOut(dir = HELD_OUT_DIR): HeldOutTree[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as HeldOutManifest;
  return manifest.trees.map((t) => {
    const paths = readFileSync(join(dir, `${t.name}.paths.txt`), 'utf8')
      .split('\n')
      .filter(Boolean);
    const cases = readFileSync(join(dir, `${t.name}.cases.jsonl`), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as HeldOutCase);
    if (paths.length !== t.paths || cases.length !== t.cases)
      throw new Error(`held-out ${t.name}: ${paths.length} paths and ${cases.length} cases on disk, the manifest says ${t.paths} and ${t.cases}`);
    for (const c of cases) if (!KINDS.includes(c.kind) || !c.answers.includes(c.from)) throw new Error(`held-out ${t.name}: malformed case ${JSON.stringify(c)}`);
    return { name: t.name, source: t.source, paths, cases };
  });
}
