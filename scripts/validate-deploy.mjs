#!/usr/bin/env node
// Validates the deployment files offline, without Docker or a cluster:
//   Dockerfile + .dockerignore, docker-compose.yml, deploy/kubernetes (+ kustomize builds
//   when kubectl is installed), deploy/helm/gitdex (helm lint and template with the pinned Helm,
//   scripts/helm.mjs), deploy/kafka, deploy/elasticsearch.
// Exits 1 with a line per problem when any check fails.
//
//   node scripts/validate-deploy.mjs            check everything
//   node scripts/validate-deploy.mjs --write    regenerate deploy/elasticsearch/*.json first
//   node scripts/validate-deploy.mjs --no-kubectl
//   node scripts/validate-deploy.mjs --no-helm     skip the Helm chart (needs Go to build Helm once)
//
// How each check works and where its schemas come from: scripts/validate-deploy/schemas/README.md.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { validateDeploy, loadFacts, writeElasticsearchTemplates } = require('./validate-deploy/index.js');
// The repository's TypeScript sources (EnvSchema, topics, index setup) load through tsx, with
// @gitdex/* falling back to src/ when not built: no build needed.
process.env.TSX_TSCONFIG_PATH ??= join(root, 'scripts/validate-deploy/tsconfig.json');
const { require: requireTs } = require('tsx/cjs/api');

const args = new Set(process.argv.slice(2));
const unknown = [...args].filter((a) => !['--write', '--no-kubectl', '--no-helm'].includes(a));
if (unknown.length > 0) {
  process.stderr.write(`validate-deploy: unknown option ${unknown.join(' ')} (use --write, --no-kubectl, --no-helm)\n`);
  process.exit(2);
}

const facts = await loadFacts(root, (rel) => requireTs(join(root, rel), import.meta.url));
if (args.has('--write')) {
  const written = writeElasticsearchTemplates(join(root, 'deploy/elasticsearch'), facts);
  process.stdout.write(`wrote deploy/elasticsearch/${written.join(', deploy/elasticsearch/')}\n`);
}

const sections = validateDeploy({ root, facts, kubectl: !args.has('--no-kubectl'), helm: !args.has('--no-helm') });
let failed = 0;
for (const { name, problems, notes } of sections) {
  process.stdout.write(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${name}\n`);
  for (const note of notes) process.stdout.write(`     ${note}\n`);
  for (const problem of problems) process.stdout.write(`     - ${problem}\n`);
  if (problems.length > 0) failed += 1;
}
const total = sections.reduce((n, s) => n + s.problems.length, 0);
process.stdout.write(failed === 0 ? `validate-deploy: ${sections.length} checks passed\n` : `validate-deploy: ${total} problem(s) in ${failed} of ${sections.length} checks\n`);
process.exit(failed === 0 ? 0 : 1);
