#!/usr/bin/env node
// The Node.js gitdex runs on. gitdex supports Node.js 24 LTS (docs/runtime.md); a machine whose
// `node` is older gets Node 24 from the npm registry, where `node-<platform>-<arch>` packages
// carry the official binary and headers, installed into the project's ignored `.tools/` folder.
// Nothing outside the checkout changes, and a machine that already has Node 24 uses its own.
//
//   node scripts/runtime.mjs            prints the folder of the `node` binary to put first on PATH
//
// As a library: ensureRuntime() → { binDir, nodeDir, version, installed }.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REQUIRED_MAJOR = 24;
/** The exact release installed when the system Node is older: pinned, so every machine runs the same. */
export const PINNED_VERSION = '24.22.3';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, '.tools', `node-${PINNED_VERSION}`);

function majorOf(version) {
  return Number(String(version).replace(/^v/, '').split('.')[0]);
}

function packageName() {
  return `node-${process.platform}-${process.arch}`;
}

function installedVersion(nodeDir) {
  try {
    return JSON.parse(readFileSync(join(nodeDir, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function say(line) {
  process.stderr.write(`gitdex: ${line}\n`);
}

/**
 * The Node.js to run gitdex with. The running one when it is Node 24 or newer; otherwise the pinned
 * Node 24 in `.tools/`, installed from the registry on first use (about 30 MB, a few seconds).
 */
export function ensureRuntime() {
  if (majorOf(process.version) >= REQUIRED_MAJOR) {
    const binDir = dirname(process.execPath);
    return { binDir, nodeDir: dirname(binDir), version: process.version, installed: false };
  }
  const nodeDir = join(toolsDir, 'node_modules', packageName());
  let installed = false;
  if (installedVersion(nodeDir) !== PINNED_VERSION || !existsSync(join(nodeDir, 'bin', 'node'))) {
    say(`Node.js ${process.version} is older than ${REQUIRED_MAJOR}; installing Node.js ${PINNED_VERSION} into .tools/ (once)...`);
    mkdirSync(toolsDir, { recursive: true });
    const result = spawnSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', '--prefix', toolsDir, `${packageName()}@${PINNED_VERSION}`], {
      cwd: toolsDir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (result.status !== 0 || !existsSync(join(nodeDir, 'bin', 'node'))) {
      say(`could not install ${packageName()}@${PINNED_VERSION} from the npm registry; install Node.js ${REQUIRED_MAJOR} and run again`);
      process.exit(result.status || 1);
    }
    installed = true;
  }
  return { binDir: join(nodeDir, 'bin'), nodeDir, version: `v${PINNED_VERSION}`, installed };
}

/** The environment of a child that must run on the gitdex runtime (npm, node-gyp and `node` included). */
export function runtimeEnv(runtime, env = process.env) {
  const path = [runtime.binDir, ...(env.PATH ?? '').split(':').filter((p) => p && p !== runtime.binDir)].join(':');
  // node-gyp builds native modules (better-sqlite3) against the local headers instead of downloading them.
  const headers = existsSync(join(runtime.nodeDir, 'include', 'node', 'node.h'));
  return { ...env, PATH: path, ...(headers ? { npm_config_nodedir: runtime.nodeDir } : {}) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`${ensureRuntime().binDir}\n`);
}
