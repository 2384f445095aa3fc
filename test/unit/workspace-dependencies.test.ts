// Each library and service declares in its own package.json exactly the packages its code
// imports: @gitdex workspaces and npm packages alike (dependency-cruiser checks npm packages
// too, but resolves the workspaces through tsconfig paths, so it cannot see those).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const BUILTINS = new Set(builtinModules);
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]|\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The packages a source tree imports, by package name. */
function importedPackages(dir: string): string[] {
  const names = new Set<string>();
  for (const file of sources(dir)) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3] ?? match[4] ?? '';
      if (spec === '' || spec.startsWith('.') || spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0] as string)) continue;
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));
    }
  }
  return [...names].sort();
}

const workspaces = ['libs', 'services'].flatMap((group) => readdirSync(join(ROOT, group)).map((name) => `${group}/${name}`));

describe('workspace dependencies', () => {
  test.each(workspaces)('%s declares exactly what its src imports', (workspace) => {
    const pkg = JSON.parse(readFileSync(join(ROOT, workspace, 'package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string> };
    const imported = importedPackages(join(ROOT, workspace, 'src')).filter((name) => name !== pkg.name);
    expect({ workspace, dependencies: Object.keys(pkg.dependencies ?? {}).sort() }).toEqual({ workspace, dependencies: imported });
  });
});
