import { lstatSync, readFileSync } from 'node:fs';
import { sortedNames } from './files';
import { join } from 'node:path';

/** An installed (or unpacked) npm package: files nobody here wrote. */
export interface PackageDir {
  name: string;
  version: string;
  dir: string;
}

function readManifest(dir: string): { name: string; version: string } | null {
  try {
    const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    if (typeof json.name !== 'string' || json.name === '') return null;
    return { name: json.name, version: typeof json.version === 'string' ? json.version : '0.0.0' };
  } catch {
    return null;
  }
}

const isRealDir = (path: string) => {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Every package under a node_modules folder, nested ones included. Symlinked packages
 * (the workspace's own @gitdex/* packages) are left out: the data must be code nobody here wrote.
 */
export function installedPackages(nodeModules: string): PackageDir[] {
  const out: PackageDir[] = [];
  const visit = (folder: string) => {
    for (const name of sortedNames(folder)) {
      if (name.startsWith('.')) continue;
      const dir = join(folder, name);
      if (!isRealDir(dir)) continue;
      if (name.startsWith('@')) {
        visit(dir);
        continue;
      }
      const manifest = readManifest(dir);
      if (manifest) out.push({ ...manifest, dir });
      const nested = join(dir, 'node_modules');
      if (isRealDir(nested)) visit(nested);
    }
  };
  visit(nodeModules);
  return out;
}

/** One package per name@version, the first one seen winning. */
export function dedupePackages(packages: PackageDir[]): PackageDir[] {
  const seen = new Set<string>();
  return packages.filter((p) => {
    const key = `${p.name}@${p.version}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
