#!/usr/bin/env node
// The Helm that CI lints and renders deploy/helm/gitdex with. Helm is a Go program published as a Go
// module, so it is built from source once with the machine's Go toolchain into the project's ignored
// `.tools/` folder (pinned, so every machine renders with the same Helm) and reused afterwards.
// The Go module and build caches live in `.tools/` too, so a build neither reads nor fills the
// user's caches and a cold build is what CI pays on a fresh checkout (docs/journal note on helm).
//
//   node scripts/helm.mjs            prints the path of the `helm` binary
//   node scripts/helm.mjs ARGS...    runs helm with ARGS
//
// As a library: ensureHelm() → { bin, version, built }.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HELM_MODULE = 'helm.sh/helm/v4/cmd/helm';
/** The exact release built: pinned, so a chart renders the same everywhere. */
export const HELM_VERSION = 'v4.3.2';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, '.tools', `helm-${HELM_VERSION}`);
const goDir = join(root, '.tools', 'go');

function say(line) {
  process.stderr.write(`gitdex: ${line}\n`);
}

/** The pinned helm binary, built with `go install` on first use. */
export function ensureHelm() {
  const bin = join(toolsDir, 'helm');
  if (existsSync(bin)) return { bin, version: HELM_VERSION, built: false };
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.status !== 0) {
    say('helm is built from its Go module and needs the Go toolchain (`go` on PATH); install Go 1.25 or newer and run again');
    process.exit(1);
  }
  say(`building helm ${HELM_VERSION} from ${HELM_MODULE} into .tools/ (once; a few minutes on a cold cache)...`);
  mkdirSync(toolsDir, { recursive: true });
  const started = Date.now();
  const result = spawnSync('go', ['install', `${HELM_MODULE}@${HELM_VERSION}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      GOBIN: toolsDir,
      GOCACHE: join(goDir, 'cache'),
      GOMODCACHE: join(goDir, 'mod'),
      GOFLAGS: '-modcacherw',
      CGO_ENABLED: '0',
    },
  });
  if (result.status !== 0 || !existsSync(bin)) {
    say(`could not build ${HELM_MODULE}@${HELM_VERSION} (go install exited ${result.status}); see the output above`);
    process.exit(result.status || 1);
  }
  say(`built helm ${HELM_VERSION} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { bin, version: HELM_VERSION, built: true };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { bin } = ensureHelm();
  const args = process.argv.slice(2);
  if (args.length === 0) {
    process.stdout.write(`${bin}\n`);
  } else {
    const run = spawnSync(bin, args, { stdio: 'inherit' });
    process.exit(run.status ?? 1);
  }
}
