#!/usr/bin/env node
// Makes a fresh clone runnable: installs dependencies when they are missing and
// builds what is stale (tsc -b is incremental: a no-op when nothing changed).
// `npm start` and `npm test` call it first, so each is the one command it claims to be.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  process.stderr.write('gitdex: installing dependencies (npm ci)...\n');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}
if (process.argv.includes('--build')) run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b']);
