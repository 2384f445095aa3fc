#!/usr/bin/env node
// What `npm test` needs beyond npm packages, brought by the test command itself so that it passes
// on a fresh machine: Debian's Chromium for the console's end-to-end test (no browser download
// exists here). Installed with apt-get when missing and running as root; otherwise one line says
// what to run, and the console test fails naming it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function say(line) {
  process.stderr.write(`gitdex: ${line}\n`);
}

function aptInstall(packages) {
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (update.status !== 0) return false;
  const install = spawnSync('apt-get', ['install', '-y', '-qq', ...packages], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return install.status === 0;
}

if (!existsSync(chromium)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt && chromium === '/usr/bin/chromium') {
    say("installing Debian's chromium for the console end-to-end test (apt-get, once)...");
    if (!aptInstall(['chromium'])) say('apt-get install chromium failed; the console end-to-end test will fail');
  } else {
    say(`${chromium} is missing: run "apt-get install -y chromium" (as root) or set CHROMIUM_PATH; the console end-to-end test needs it`);
  }
}
