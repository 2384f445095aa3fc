import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { totalBytes, walk, type SourceFile } from './files';
import { dedupePackages, installedPackages, type PackageDir } from './packages';

/** The content of one benchmark repository, built at bench time from files nobody here wrote. */
export interface Corpus {
  name: string;
  description: string;
  files: SourceFile[];
  bytes: number;
}

export const REPO_ROOT = resolve(__dirname, '..', '..');
const NODE_MODULES = join(REPO_ROOT, 'node_modules');
/** gitdex stores content up to GITDEX_MAX_FILE_BYTES (1 MiB): larger files are left out of the data. */
export const MAX_FILE_BYTES = 1024 * 1024;
const SKIP = ['.git', 'node_modules'];

function corpus(name: string, description: string, files: SourceFile[]): Corpus {
  return { name, description, files, bytes: totalBytes(files) };
}

function packageFiles(pkg: PackageDir, prefix?: string): SourceFile[] {
  return walk(pkg.dir, { maxBytes: MAX_FILE_BYTES, skipDirs: SKIP, ...(prefix ? { prefix } : {}) }).files.filter((f) => !/[\n\r\\]/.test(f.path));
}

function installed(name: string): PackageDir | null {
  const dir = join(NODE_MODULES, name);
  if (!existsSync(join(dir, 'package.json'))) return null;
  return installedPackages(NODE_MODULES).find((p) => p.dir === dir) ?? null;
}

/** A real package of about 100 files. */
export function smallCorpus(): Corpus {
  for (const name of ['bottleneck', 'zod-to-json-schema', 'ajv-i18n', 'pino', 'yaml']) {
    const pkg = installed(name);
    if (!pkg) continue;
    const files = packageFiles(pkg);
    if (files.length >= 50 && files.length <= 250) return corpus('small', `npm package ${pkg.name}@${pkg.version}`, files);
  }
  throw new Error('no installed package of 50-250 files found for the small repository');
}

/** A real medium package (the Elasticsearch client, or TypeScript). */
export function mediumCorpus(): Corpus {
  for (const name of ['@elastic/elasticsearch', 'typescript', 'zod']) {
    const pkg = installed(name);
    if (pkg) return corpus('medium', `npm package ${pkg.name}@${pkg.version}`, packageFiles(pkg));
  }
  throw new Error('none of @elastic/elasticsearch, typescript, zod is installed');
}

/** The JDK's own Java sources (lib/src.zip of the newest JDK), unpacked into `workDir`. */
function jdkSources(workDir: string): string | null {
  let jdks: string[];
  try {
    jdks = readdirSync('/usr/lib/jvm').sort().reverse();
  } catch {
    return null;
  }
  const zip = jdks.map((j) => `/usr/lib/jvm/${j}/lib/src.zip`).find((z) => existsSync(z));
  if (!zip) return null;
  const dest = join(workDir, 'jdk-src');
  mkdirSync(dest, { recursive: true });
  execFileSync('unzip', ['-q', '-o', zip, '-d', dest], { stdio: 'ignore' });
  return dest;
}

/** Source trees used after the npm packages when more files are wanted: [path prefix, folder]. */
function extraTrees(workDir: string): (() => [string, string] | null)[] {
  return [
    () => {
      const dir = jdkSources(workDir);
      return dir ? ['jdk-src', dir] : null;
    },
    ...['/usr/include', '/usr/lib/python3', ...pythonLibs(), '/usr/share/perl', '/usr/share/doc'].map((tree) => () => (existsSync(tree) ? ([`system${tree}`, tree] as [string, string]) : null)),
  ];
}

function pythonLibs(): string[] {
  try {
    return readdirSync('/usr/lib')
      .filter((n) => /^python3\.\d+$/.test(n))
      .map((n) => `/usr/lib/${n}`);
  } catch {
    return [];
  }
}

/**
 * Many packages as one big monorepo: every package under node_modules (nested too) and the
 * global ones, one per name@version, each under "<name>@<version>/"; then the JDK's sources
 * (unpacked into `workDir`) and system source trees, until `limit` files.
 */
export function largeCorpus(limit: number, options: { workDir: string }): Corpus {
  const packages = [...installedPackages(NODE_MODULES), ...installedPackages('/usr/lib/node_modules')];
  const unique = dedupePackages(packages).sort((a, b) => (`${a.name}@${a.version}` < `${b.name}@${b.version}` ? -1 : 1));
  const files: SourceFile[] = [];
  const sources: string[] = [];
  for (const pkg of unique) {
    if (files.length >= limit) break;
    for (const f of packageFiles(pkg, `${pkg.name}@${pkg.version}`)) files.push(f);
  }
  sources.push(`${unique.length} npm packages (node_modules, deduplicated by name@version)`);
  for (const extra of extraTrees(options.workDir)) {
    if (files.length >= limit) break;
    const found = extra();
    if (!found) continue;
    const [prefix, tree] = found;
    for (const f of walk(tree, { maxBytes: MAX_FILE_BYTES, skipDirs: ['.git', '__pycache__'], prefix }).files) if (!/[\n\r\\]/.test(f.path)) files.push(f);
    sources.push(prefix === 'jdk-src' ? 'the JDK sources (lib/src.zip)' : tree);
  }
  const taken = files.slice(0, limit);
  return corpus(
    'large',
    `${sources.join(' + ')}; ${taken.length < limit ? `all ${taken.length.toLocaleString('en-US')} files up to 1 MiB` : `the first ${taken.length.toLocaleString('en-US')} files up to 1 MiB`}`,
    taken,
  );
}
