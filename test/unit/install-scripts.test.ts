// Issue 17, item 10: no dependency's install script runs, in any install gitdex makes, and a new
// dependency that brings one is reviewed here before it lands.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const read = (rel: string) => readFileSync(join(root, rel), 'utf8');

/** @gitdex/symbols loads each grammar's prebuilt .wasm (shipped in the package) with web-tree-sitter. */
const WASM_GRAMMAR = 'node-gyp-build would build the native binding, which gitdex never loads: the package ships tree-sitter-*.wasm';

/**
 * Packages of the lockfile with an install script, and why gitdex works without running it.
 * Checked by `npm ci --ignore-scripts` in a scratch copy on Node 24 (docs/security.md).
 */
const REVIEWED: Record<string, string> = {
  'node_modules/@swc/core': 'the binary comes as an optional platform package (@swc/core-linux-x64-gnu, ...)',
  'node_modules/esbuild': 'the binary comes as an optional platform package (@esbuild/linux-x64, ...)',
  'node_modules/@parcel/watcher': 'dev (jest-haste-map): optional platform packages',
  'node_modules/protobufjs': 'dev (grpc via testcontainers): the postinstall only checks versions',
  'node_modules/ssh2': 'dev (dockerode): the native crypto binding is optional, pure JavaScript otherwise',
  'node_modules/cpu-features': 'dev, optional dependency of ssh2, which works without it',
  'node_modules/tree-sitter-c': WASM_GRAMMAR,
  'node_modules/tree-sitter-c-sharp': WASM_GRAMMAR,
  'node_modules/tree-sitter-cpp': WASM_GRAMMAR,
  'node_modules/tree-sitter-go': WASM_GRAMMAR,
  'node_modules/tree-sitter-java': WASM_GRAMMAR,
  'node_modules/tree-sitter-javascript': WASM_GRAMMAR,
  'node_modules/tree-sitter-php': WASM_GRAMMAR,
  'node_modules/tree-sitter-python': WASM_GRAMMAR,
  'node_modules/tree-sitter-ruby': WASM_GRAMMAR,
  'node_modules/tree-sitter-rust': WASM_GRAMMAR,
  'node_modules/tree-sitter-typescript': WASM_GRAMMAR,
};

describe('install scripts', () => {
  it('are off for every npm command in the repository (.npmrc)', () => {
    const settings = read('.npmrc')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !/^[#;]/.test(line));
    expect(settings).toContain('ignore-scripts=true');
  });

  it('are refused explicitly by every npm ci gitdex runs (the flag wins over the environment)', () => {
    const installsOf = (file: string) =>
      read(file)
        .split('\n')
        .filter((line) => !/^\s*(#|\/\/)/.test(line) && /(^|\s)npm (ci|install|i)\b|\['(ci|install)'/.test(line));
    for (const file of ['scripts/prepare.mjs', 'scripts/runtime.mjs', 'Dockerfile']) expect({ file, installs: installsOf(file).length > 0 }).toEqual({ file, installs: true });
    for (const file of ['.ci/run', 'scripts/prepare.mjs', 'scripts/runtime.mjs', 'Dockerfile']) {
      for (const line of installsOf(file)) expect({ file, line, ignored: /--ignore-scripts/.test(line) }).toEqual({ file, line, ignored: true });
    }
    // CI installs through the preparation step every npm script runs, not an npm ci of its own.
    expect(read('.ci/run')).toMatch(/^node scripts\/prepare\.mjs --build$/m);
  });

  it('are needed by no dependency: each one that has one is reviewed', () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, info]) => info.hasInstallScript)
      .map(([name]) => name.replace(/^.*(node_modules\/(@[^/]+\/)?[^/]+)$/, '$1'));
    expect([...new Set(withScripts)].sort()).toEqual(Object.keys(REVIEWED).sort());
  });

  it('better-sqlite3 loads a prebuilt binary shipped in its package, with no build step', () => {
    const manifest = JSON.parse(read('node_modules/better-sqlite3/package.json')) as { scripts?: Record<string, string>; gypfile?: boolean };
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => /^(pre|post)?install$/.test(name))).toEqual([]);
    expect(manifest.gypfile).toBe(false);
    expect(read(`node_modules/better-sqlite3/lib/${process.platform}-${process.arch}.js`)).toMatch(/prebuilds\//);
  });
});
