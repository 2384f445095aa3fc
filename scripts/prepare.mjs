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
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureRuntime, runtimeEnv } from './runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const separator = process.argv.indexOf('--');
const options = separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator);
const command = separator === -1 ? [] : process.argv.slice(separator + 1);

const runtime = ensureRuntime();
const env = runtimeEnv(runtime);
const nodeBin = join(runtime.binDir, 'node');

const run = (file, args, stdio = ['ignore', 'inherit', 'inherit']) => {
  const result = spawnSync(file, args, { cwd: root, stdio, env });
  if (result.error) {
    process.stderr.write(`gitdex: could not run ${file}: ${result.error.message}\n`);
    process.exit(1);
  }
  return result;
};
const runOrExit = (file, args) => {
  const result = run(file, args);
  if (result.status !== 0) process.exit(result.status ?? 1);
};

// Which Node.js ABI the installed native modules were built for.
const abiMarker = join(root, 'node_modules', '.gitdex-node-abi');
const abi = run(nodeBin, ['-p', 'process.versions.modules'], ['ignore', 'pipe', 'inherit']).stdout.toString().trim();
const installedAbi = existsSync(abiMarker) ? readFileSync(abiMarker, 'utf8').trim() : undefined;
if (!existsSync(join(root, 'node_modules', '.package-lock.json')) || installedAbi !== abi) {
  process.stderr.write(`gitdex: installing dependencies for Node.js ${runtime.version} (npm ci)...\n`);
  runOrExit('npm', ['ci', '--no-audit', '--no-fund']);
  writeFileSync(abiMarker, `${abi}\n`);
}
if (options.includes('--build')) runOrExit(nodeBin, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b']);

if (command.length > 0) {
  const [file, ...args] = command;
  const child = spawn(file === 'node' ? nodeBin : file, args, { cwd: process.cwd(), stdio: 'inherit', env });
  // A supervisor that stops `npm start` stops the product too, not only this launcher.
  const forward = (signal) => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  child.on('error', (error) => {
    process.stderr.write(`gitdex: could not run ${file}: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(name, forward);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}
