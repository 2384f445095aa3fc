'use strict';
// Validates everything gitdex ships for deployment, offline and without Docker or a cluster:
// Dockerfile and .dockerignore, docker-compose.yml, the Kubernetes manifests and their
// kustomizations, the Kafka topic definitions and the Elasticsearch index templates.
// scripts/validate-deploy.mjs is the command; test/unit/deploy-*.test.ts run the same checks.

const fs = require('node:fs');
const path = require('node:path');
const { validateDockerfile, validateDockerignore, buildContext, workspaceFolders } = require('./dockerfile');
const { validateComposeText, validateComposeDocument, parseYamlDocuments, SAMPLE_ENVIRONMENT } = require('./compose');
const { validateKubernetesObject, validateKubernetesSet, collectKustomization, entryKustomizations, kustomizeBuild, readManifests } = require('./kubernetes');
const { validateKafkaTopics, validateTopicScript, shellSyntax } = require('./kafka');
const { validateElasticsearchTemplates, writeElasticsearchTemplates } = require('./elasticsearch');
const { loadFacts } = require('./facts');
const { loadSchemas } = require('./schemas');
const { validateChart, renderChart, validateRendered } = require('./helm');

function readText(root, rel) {
  const file = path.join(root, rel);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

/**
 * Runs every check. Returns one section per checked thing, each with its problems (empty
 * when it passes) and notes (what was checked, or skipped and why).
 * `kubectl: false` skips rendering the kustomizations with `kubectl kustomize`; `helm: false`
 * skips the Helm chart (rendering it needs Helm, built from Go by scripts/helm.mjs).
 */
function validateDeploy({ root, facts, kubectl = true, helm = true }) {
  const sections = [];
  const section = (name, run) => {
    const notes = [];
    let problems;
    try {
      problems = run(notes);
    } catch (error) {
      problems = [`check failed: ${error instanceof Error ? error.stack || error.message : String(error)}`];
    }
    sections.push({ name, problems, notes });
  };
  const deployDoc = readText(root, 'docs/deploy.md') ?? '';
  const workspaces = workspaceFolders(root);

  section('Dockerfile', (notes) => {
    const text = readText(root, 'Dockerfile');
    if (text === null) return ['Dockerfile is missing'];
    const context = buildContext(root, readText(root, '.dockerignore') ?? '');
    notes.push(`${workspaces.length} workspaces, lint (dockerfile-utils), stages, COPY sources against the repository and .dockerignore, runtime user, env, health check, entry point`);
    return validateDockerfile(text, context, { workspaces, port: facts.defaults.port });
  });

  section('.dockerignore', () => {
    const text = readText(root, '.dockerignore');
    if (text === null) return ['.dockerignore is missing'];
    return validateDockerignore(buildContext(root, text), root, workspaces);
  });

  section('docker-compose.yml', (notes) => {
    const text = readText(root, 'docker-compose.yml');
    if (text === null) return ['docker-compose.yml is missing'];
    const result = validateComposeText(text, { facts, root, docs: deployDoc });
    notes.push(`Compose Specification schema (vendored), cross-references; required variables: ${[...result.required.keys()].join(', ') || 'none'}`);
    return result.problems;
  });

  section('Kubernetes (deploy/kubernetes)', (notes) => {
    const dir = path.join(root, 'deploy/kubernetes');
    if (!fs.existsSync(dir)) return ['deploy/kubernetes is missing'];
    const problems = [];
    notes.push(`strict schemas of Kubernetes ${loadSchemas().kubernetesVersion}, KEDA CRD schema (@kubernetes-models/keda)`);
    for (const entry of entryKustomizations(dir)) {
      const rel = path.relative(root, entry);
      const collected = collectKustomization(entry, root);
      problems.push(...collected.problems);
      problems.push(...validateKubernetesSet(collected.objects, { facts, images: [...collected.images], docs: deployDoc }).map((p) => `${rel}: ${p}`));
      if (kubectl) {
        const built = kustomizeBuild(entry);
        if (built.skipped) notes.push(`${rel}: kustomize build skipped (${built.skipped})`);
        else if (built.error) problems.push(`${rel}: kubectl kustomize failed: ${built.error}`);
        else {
          const expected = collected.objects
            .map((o) => `${o.kind}/${o.metadata.name}`)
            .sort()
            .join(' ');
          const rendered = built.objects
            .map((o) => `${o.kind}/${o.metadata.name}`)
            .sort()
            .join(' ');
          if (expected !== rendered) problems.push(`${rel}: kubectl kustomize renders [${rendered}], the resources list [${expected}]`);
          for (const o of built.objects) {
            for (const p of validateKubernetesObject(o)) problems.push(`${rel} (rendered): ${o.kind}/${o.metadata.name}: ${p}`);
            for (const c of (o.spec && o.spec.template && o.spec.template.spec && o.spec.template.spec.containers) || []) {
              if (!String(c.image).includes(':')) problems.push(`${rel} (rendered): ${o.kind}/${o.metadata.name}: image ${c.image} has no tag after kustomize`);
            }
          }
          notes.push(`${rel}: kubectl kustomize renders ${built.objects.length} objects`);
        }
      }
    }
    return [...new Set(problems)];
  });

  if (helm) {
    section('Helm chart (deploy/helm/gitdex)', (notes) => {
      notes.push(
        `helm lint --strict, helm template with default values and ci/all-on-values.yaml, strict schemas of Kubernetes ${loadSchemas().kubernetesVersion}, the set cross-checked, alert and dashboard metrics`,
      );
      return validateChart({ root, facts, docs: deployDoc, notes });
    });
  }

  section('Kafka topics (deploy/kafka)', () => {
    const problems = [];
    const file = path.join(root, 'deploy/kafka/topics.yaml');
    if (!fs.existsSync(file)) problems.push('deploy/kafka/topics.yaml is missing');
    else {
      const { objects, errors } = readManifests(file);
      problems.push(...errors.map((e) => `topics.yaml: YAML: ${e}`), ...validateKafkaTopics(objects, facts).map((p) => `topics.yaml: ${p}`));
    }
    const script = readText(root, 'deploy/kafka/create-topics.sh');
    if (script === null) problems.push('deploy/kafka/create-topics.sh is missing');
    else problems.push(...validateTopicScript(script, facts).map((p) => `create-topics.sh: ${p}`));
    return problems;
  });

  section('Elasticsearch templates (deploy/elasticsearch)', (notes) => {
    notes.push(`equal to what ensureReady puts: ${Object.keys(facts.elasticsearchTemplates).join(', ')}`);
    return validateElasticsearchTemplates(path.join(root, 'deploy/elasticsearch'), facts);
  });

  section('Shell scripts (deploy/**/*.sh)', (notes) => {
    const problems = [];
    const scripts = [];
    const walk = (dir) => {
      for (const name of fs.readdirSync(dir)) {
        const full = path.join(dir, name);
        if (fs.statSync(full).isDirectory()) walk(full);
        else if (name.endsWith('.sh')) scripts.push(full);
      }
    };
    if (fs.existsSync(path.join(root, 'deploy'))) walk(path.join(root, 'deploy'));
    for (const file of scripts) {
      const rel = path.relative(root, file);
      const result = shellSyntax(file);
      if (result === null) notes.push(`${rel}: skipped (no bash)`);
      else problems.push(...result.map((p) => `${rel}: ${p}`));
      if (!(fs.statSync(file).mode & 0o111)) problems.push(`${rel}: not executable (chmod +x)`);
    }
    notes.push(`bash -n of ${scripts.length} scripts`);
    return problems;
  });

  return sections;
}

module.exports = {
  validateDeploy,
  loadFacts,
  validateDockerfile,
  validateDockerignore,
  buildContext,
  workspaceFolders,
  validateComposeText,
  validateComposeDocument,
  validateKubernetesObject,
  validateKubernetesSet,
  validateKafkaTopics,
  renderChart,
  validateRendered,
  validateElasticsearchTemplates,
  writeElasticsearchTemplates,
  parseYamlDocuments,
  readManifests,
  SAMPLE_ENVIRONMENT,
};
