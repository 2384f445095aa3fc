/**
 * Freezes the held-out suggestion cases: reads the trees from this machine once, writes
 * their path lists and cases under bench/suggest-heldout/data/ (committed), so measuring
 * them later needs neither the trees nor this machine. Refuses to overwrite a frozen set:
 * the set is fixed before any ranking change and must not follow the ranking.
 * Run: npx tsx --tsconfig bench/tsconfig.json bench/suggest-heldout/freeze.ts [--force]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../data/corpora';
import { HELD_OUT_DIR, type HeldOutManifest } from './load';
import { makeHeldOutCases } from './rules';

const PER_KIND = 20;
const SEED = 20261201;

/** Every regular file under `dir`, relative, sorted; caches and paths a line cannot hold left out. */
function filesUnder(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/');
    if (/[\n\r\t|]/.test(rel) || rel.split('/').includes('__pycache__') || skip(rel)) continue;
    out.push(rel);
  }
  return out.sort();
}

function version(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
}

function newestJdkSources(): { zip: string; name: string } | null {
  const jvm = '/usr/lib/jvm';
  if (!existsSync(jvm)) return null;
  const found = readdirSync(jvm)
    .map((name) => ({ name, zip: join(jvm, name, 'lib', 'src.zip') }))
    .filter((j) => existsSync(j.zip))
    .sort((a, b) => Number(/(\d+)/.exec(b.name)?.[1] ?? 0) - Number(/(\d+)/.exec(a.name)?.[1] ?? 0) || (a.name < b.name ? -1 : 1));
  return found[0] ?? null;
}

function npmPackage(name: string): { paths: string[]; source: string } {
  const dir = join(REPO_ROOT, 'node_modules', name);
  const { version: v } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  return { paths: filesUnder(dir, (rel) => rel.startsWith('node_modules/')), source: `npm package ${name}@${v} as installed` };
}

/** The trees: none was used to tune the ranking (that was kafkajs, pino, @modelcontextprotocol/sdk, zod and @elastic/elasticsearch). */
function trees(): { name: string; source: string; paths: string[] }[] {
  const out: { name: string; source: string; paths: string[] }[] = [];
  const python = '/usr/lib/python3.11';
  if (existsSync(python)) out.push({ name: 'cpython-stdlib', source: `${python} (${version('python3', ['--version'])} standard library, __pycache__ left out)`, paths: filesUnder(python) });
  const goroot = version('go', ['env', 'GOROOT']);
  out.push({ name: 'go-stdlib', source: `${goroot}/src (${version('go', ['version'])})`, paths: filesUnder(join(goroot, 'src')) });
  const jdk = newestJdkSources();
  if (jdk) {
    const entries = execFileSync('unzip', ['-Z1', jdk.zip], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 }).split('\n');
    out.push({ name: 'jdk-java.base', source: `java.base of ${jdk.zip} (${jdk.name})`, paths: entries.filter((e) => e.startsWith('java.base/') && !e.endsWith('/') && !/[\r\t|]/.test(e)).sort() });
  }
  for (const [name, pkg] of [
    ['ajv', 'ajv'],
    ['opentelemetry-api', '@opentelemetry/api'],
    ['yaml', 'yaml'],
    ['undici', 'undici'],
  ] as const) {
    const { paths, source } = npmPackage(pkg);
    out.push({ name, source, paths });
  }
  return out;
}

function main(): void {
  const force = process.argv.includes('--force');
  if (existsSync(join(HELD_OUT_DIR, 'manifest.json')) && !force)
    throw new Error(`${HELD_OUT_DIR} holds a frozen set already; it is not regenerated (--force only if the rules themselves were wrong, and say so in the commit)`);
  mkdirSync(HELD_OUT_DIR, { recursive: true });
  const manifest: HeldOutManifest = { frozenAt: new Date().toISOString(), perKind: PER_KIND, seed: SEED, trees: [] };
  for (const tree of trees()) {
    const cases = makeHeldOutCases(tree.paths, { perKind: PER_KIND, seed: SEED });
    writeFileSync(join(HELD_OUT_DIR, `${tree.name}.paths.txt`), `${tree.paths.join('\n')}\n`);
    writeFileSync(join(HELD_OUT_DIR, `${tree.name}.cases.jsonl`), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
    manifest.trees.push({ name: tree.name, source: tree.source, paths: tree.paths.length, cases: cases.length });
    process.stdout.write(`${tree.name}: ${tree.paths.length} paths, ${cases.length} cases (${cases.filter((c) => c.answers.length === 1).length} with one answer)\n`);
  }
  writeFileSync(join(HELD_OUT_DIR, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

main();
