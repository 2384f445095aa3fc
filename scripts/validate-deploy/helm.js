'use strict';
// The Helm chart deploy/helm/gitdex, rendered by the real Helm (scripts/helm.mjs builds the pinned
// release from its Go module) and checked as the kustomize manifests are: `helm lint`, then
// `helm template` with the default values and with every option on (ci/all-on-values.yaml), each
// rendered object against the strict Kubernetes schemas (KEDA's CRD schema for KEDA objects), the
// set cross-checked (validateKubernetesSet), and the monitoring objects against the metrics gitdex
// exports.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { parseYamlDocuments } = require('./compose');
const { validateKubernetesObject, validateKubernetesSet } = require('./kubernetes');

const CHART = 'deploy/helm/gitdex';
/** The values files rendered besides the defaults (helm's own convention: ci/*-values.yaml). */
const VALUE_SETS = ['ci/all-on-values.yaml'];

/** Runs the pinned helm (built once into .tools/); { stdout } or { error }. */
function runHelm(root, args) {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/helm.mjs'), ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) return { error: `helm ${args.join(' ')}: ${(result.stderr || result.stdout || '').trim()}` };
  return { stdout: result.stdout };
}

/** Every object `helm template` renders with the given values files. */
function renderChart(root, valueFiles = [], release = 'gitdex') {
  const chart = path.join(root, CHART);
  const args = ['template', release, chart, '--namespace', 'gitdex', ...valueFiles.flatMap((file) => ['--values', path.join(chart, file)])];
  const run = runHelm(root, args);
  if (run.error) return { error: run.error, objects: [] };
  const { values, errors } = parseYamlDocuments(run.stdout);
  if (errors.length > 0) return { error: `rendered YAML: ${errors.join('; ')}`, objects: [] };
  return { objects: values.filter((d) => d && typeof d === 'object') };
}

/** gitdex metric names a PromQL expression uses (histogram series map to their metric). */
function metricsOf(expr) {
  return [...String(expr).matchAll(/\b(gitdex_[a-z0-9_]+)/g)].map((m) => m[1].replace(/_(bucket|sum|count)$/, ''));
}

function checkMetrics(where, exprs, facts) {
  const problems = [];
  for (const expr of exprs) {
    for (const metric of metricsOf(expr)) if (!facts.metricNames.has(metric)) problems.push(`${where}: ${metric} is not a metric gitdex exports (known: ${[...facts.metricNames].join(', ')})`);
  }
  return problems;
}

const isDashboard = (o) => o.kind === 'ConfigMap' && o.metadata && o.metadata.labels && o.metadata.labels.grafana_dashboard !== undefined;
const isMonitoring = (o) => String(o.apiVersion).startsWith('monitoring.coreos.com/');

/** The Prometheus Operator and Grafana objects: their shape and the metrics they name. */
function validateMonitoring(o, facts) {
  const where = `${o.kind}/${o.metadata.name}`;
  if (o.kind === 'ServiceMonitor') {
    const endpoints = (o.spec && o.spec.endpoints) || [];
    if (endpoints.length === 0 || !endpoints.every((e) => e.port && e.path === '/metrics')) return [`${where}: every endpoint needs a port and path /metrics`];
    return [];
  }
  if (o.kind === 'PrometheusRule') {
    const rules = ((o.spec && o.spec.groups) || []).flatMap((g) => g.rules || []);
    const problems = rules.filter((r) => !r.alert || !r.expr).map((r) => `${where}: a rule without alert or expr (${JSON.stringify(r)})`);
    return problems.concat(
      checkMetrics(
        where,
        rules.map((r) => r.expr),
        facts,
      ),
    );
  }
  if (isDashboard(o)) {
    let dashboard;
    try {
      dashboard = JSON.parse(Object.values(o.data || {})[0] || '');
    } catch (error) {
      return [`${where}: the dashboard is not JSON (${error.message})`];
    }
    const exprs = (dashboard.panels || []).flatMap((p) => (p.targets || []).map((t) => t.expr));
    return exprs.length === 0 ? [`${where}: the dashboard has no queries`] : checkMetrics(where, exprs, facts);
  }
  return [`${where}: ${o.apiVersion} ${o.kind} is not checked here`];
}

/** Problems of one rendering: each object, then the set. */
function validateRendered(objects, { facts, docs }) {
  const problems = [];
  for (const o of objects) {
    const where = `${o.kind}/${o.metadata && o.metadata.name}`;
    if (isMonitoring(o) || isDashboard(o)) problems.push(...validateMonitoring(o, facts));
    else problems.push(...validateKubernetesObject(o).map((p) => `${where}: ${p}`));
  }
  const set = objects.filter((o) => !isMonitoring(o) && !isDashboard(o));
  problems.push(...validateKubernetesSet(set, { facts, docs }));
  return problems;
}

/** The chart's section of validate-deploy: lint, then each rendering. */
function validateChart({ root, facts, docs, notes }) {
  if (!fs.existsSync(path.join(root, CHART, 'Chart.yaml'))) return [`${CHART}/Chart.yaml is missing`];
  const problems = [];
  const lint = runHelm(root, ['lint', '--strict', path.join(root, CHART), ...VALUE_SETS.flatMap((f) => ['--values', path.join(root, CHART, f)])]);
  const lintDefaults = runHelm(root, ['lint', '--strict', path.join(root, CHART)]);
  for (const run of [lintDefaults, lint]) if (run.error) problems.push(run.error);
  for (const values of [[], ...VALUE_SETS.map((f) => [f])]) {
    const label = values.length === 0 ? 'default values' : values.join(', ');
    const rendered = renderChart(root, values);
    if (rendered.error) {
      problems.push(`${label}: ${rendered.error}`);
      continue;
    }
    notes.push(`${label}: ${rendered.objects.length} objects (${[...new Set(rendered.objects.map((o) => o.kind))].join(', ')})`);
    problems.push(...validateRendered(rendered.objects, { facts, docs }).map((p) => `${label}: ${p}`));
  }
  return problems;
}

module.exports = { CHART, VALUE_SETS, renderChart, validateChart, validateRendered, runHelm };
