#!/usr/bin/env node
// Makes a fresh clone runnable, then runs a command on the gitdex runtime:
//
//   node scripts/prepare.mjs [--build] [-- command args...]
//
// 1. the runtime: Node.js 24, from PATH or installed into .tools/ (scripts/runtime.mjs);
// 2. dependencies: `npm ci` on that runtime when node_modules is missing or was installed by
//    another Node.js major (native modules are built for one ABI);
// 3. --build: tsc -b (incremental: a no-op when nothing changed);
// 4. the command after `--`, with that runtime first on PATH, so `node`, `npm` and `jest` run on it.
// `npm start`, `npm test` and the other scripts go through it, so each is the one command it claims to be.
// Everything the preparation prints goes to stderr: stdout belongs to the command (MCP over stdio).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureRuntime, runtimeEnv } from './runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function say(line) {
  process.stderr.write(`gitdex: ${line}\n`);
}

/** Runs a preparation step with its output on stderr; exits with its status when it fails. */
function step(env, file, args, capture = false) {
  const result = spawnSync(file, args, { cwd: root, env, stdio: ['ignore', capture ? 'pipe' : 2, 'inherit'] });
  if (result.error) {
    say(`could not run ${file}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
  return capture ? result.stdout.toString().trim() : '';
}

/** The runtime, its environment, installed dependencies and (with build) a fresh tsc -b. */
export function prepare({ build = false } = {}) {
  const runtime = ensureRuntime();
  const env = runtimeEnv(runtime);
  const nodeBin = join(runtime.binDir, 'node');
  // Which Node.js ABI the installed native modules were built for.
  const abiMarker = join(root, 'node_modules', '.gitdex-node-abi');
  const abi = step(env, nodeBin, ['-p', 'process.versions.modules'], true);
  const installedAbi = existsSync(abiMarker) ? readFileSync(abiMarker, 'utf8').trim() : undefined;
  if (!existsSync(join(root, 'node_modules', '.package-lock.json')) || installedAbi !== abi) {
    say(`installing dependencies for Node.js ${runtime.version} (npm ci)...`);
    // No install script runs (also .npmrc; the flag wins over an npm_config_ignore_scripts in the
    // environment): none is needed, see docs/security.md "Install scripts".
    step(env, 'npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund']);
    writeFileSync(abiMarker, `${abi}\n`);
  }
  if (build) step(env, nodeBin, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b']);
  return { env, nodeBin };
}

/** Runs the command on the runtime and exits as it exits; signals to this process are passed on. */
export function runOnRuntime({ env, nodeBin }, [file, ...args]) {
  const child = spawn(file === 'node' ? nodeBin : file, args, { cwd: process.cwd(), stdio: 'inherit', env });
  // A supervisor that stops `npm start` stops the product too, not only this launcher.
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const forward = (signal) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  child.on('error', (error) => {
    say(`could not run ${file}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (!signal) process.exit(code ?? 1);
    for (const name of signals) process.off(name, forward);
    process.kill(process.pid, signal);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const separator = process.argv.indexOf('--');
  const options = separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator);
  const command = separator === -1 ? [] : process.argv.slice(separator + 1);
  const prepared = prepare({ build: options.includes('--build') });
  if (command.length > 0) runOnRuntime(prepared, command);
}
