'use strict';
// Kubernetes manifests, offline: every object is validated against the strict schema of its
// kind (unknown fields fail, as with kubectl's server-side field validation; Kubernetes
// version and provenance in schemas/README.md), KEDA objects against the KEDA CRD schema
// that @kubernetes-models/keda ships, then the whole set is cross-checked: selectors,
// ports, probes, resources, security context, ConfigMap and Secret references, autoscalers.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { loadSchemas, check } = require('./schemas');
const { parseYamlDocuments } = require('./compose');

const KUSTOMIZATION_KEYS = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'namePrefix',
  'nameSuffix',
  'resources',
  'components',
  'images',
  'patches',
  'labels',
  'commonAnnotations',
  'configMapGenerator',
  'replicas',
  'generatorOptions',
]);

function crd(apiVersion, kind) {
  if (apiVersion === 'keda.sh/v1alpha1' && kind === 'ScaledObject') return require('@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject').ScaledObject;
  if (apiVersion === 'keda.sh/v1alpha1' && kind === 'TriggerAuthentication') return require('@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication').TriggerAuthentication;
  return null;
}

/** Schema problems of one object (none when valid). */
function validateKubernetesObject(obj) {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return ['not a Kubernetes object'];
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return ['apiVersion and kind are required'];
  const problems = [];
  if (!obj.metadata || typeof obj.metadata.name !== 'string' || obj.metadata.name === '') problems.push('metadata.name is required');
  else if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(obj.metadata.name) || obj.metadata.name.length > 253)
    problems.push(`metadata.name "${obj.metadata.name}" is not a valid name (lower-case letters, digits, - and .)`);
  const schemas = loadSchemas();
  const validate = schemas.kubernetes(apiVersion, kind);
  if (validate) return problems.concat(check(validate, obj));
  const Model = crd(apiVersion, kind);
  if (Model) {
    try {
      new Model(obj).validate();
    } catch (error) {
      problems.push(
        ...String(error.message)
          .split(', ')
          .map((m) => m.replace(/^data/, '') || m),
      );
    }
    return problems;
  }
  return problems.concat([
    `${apiVersion} ${kind} has no schema here (known: ${schemas.kubernetesKinds.join(', ')}, keda.sh/v1alpha1 ScaledObject and TriggerAuthentication): add it to scripts/validate-deploy/vendor-schemas.py`,
  ]);
}

const quantity = (text) => {
  const m = /^([0-9.]+)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(text));
  if (!m) return NaN;
  const units = { m: 1e-3, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Number(m[1]) * (m[2] ? units[m[2]] : 1);
};

const matches = (selector, labels) => Boolean(selector) && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels && labels[k] === v);
const name = (o) => `${o.kind}/${o.metadata && o.metadata.name}`;

/**
 * Cross-checks a set of objects that are applied together. `images`: image names the
 * kustomization rewrites (so a bare "gitdex" is fine); `docs`: the deployment guide's text,
 * which must name every Secret the manifests reference.
 */
function validateKubernetesSet(objects, { facts, images = [], docs } = {}) {
  const problems = [];
  const byKind = (kind) => objects.filter((o) => o.kind === kind);
  const seen = new Set();
  for (const o of objects) {
    const key = `${o.kind}/${o.metadata && o.metadata.namespace}/${o.metadata && o.metadata.name}`;
    if (seen.has(key)) problems.push(`${name(o)}: defined twice`);
    seen.add(key);
  }
  for (const secret of byKind('Secret')) problems.push(`${name(secret)}: secret values must not live in the manifests; reference a Secret created outside them (docs/deploy.md)`);

  const deployments = byKind('Deployment');
  const configMaps = new Map(byKind('ConfigMap').map((c) => [c.metadata.name, c]));
  const serviceAccounts = new Set(byKind('ServiceAccount').map((s) => s.metadata.name));
  const referencedSecrets = new Set();
  const partitions = Number((configMaps.get('gitdex-config') || { data: {} }).data?.KAFKA_PARTITIONS || facts.defaults.partitions);

  for (const cm of configMaps.values()) {
    for (const key of Object.keys(cm.data || {})) {
      if (facts.secretNames.has(key)) problems.push(`${name(cm)}: ${key} is a secret: put it in a Secret, not a ConfigMap`);
      else if (key === 'GITDEX_ROLE') problems.push(`${name(cm)}: GITDEX_ROLE differs per Deployment: set it there`);
      else if (!facts.envNames.has(key)) problems.push(`${name(cm)}: ${key} is not a variable gitdex reads (typo? see README "Configuration")`);
    }
  }

  for (const d of deployments) {
    const where = name(d);
    const spec = d.spec || {};
    const template = spec.template || {};
    const labels = (template.metadata && template.metadata.labels) || {};
    const pod = template.spec || {};
    if (!matches(spec.selector && spec.selector.matchLabels, labels)) problems.push(`${where}: spec.selector.matchLabels does not match the pod template's labels`);
    if (pod.serviceAccountName && !serviceAccounts.has(pod.serviceAccountName)) problems.push(`${where}: serviceAccountName ${pod.serviceAccountName} is not defined`);
    const podSecurity = pod.securityContext || {};
    if (podSecurity.runAsNonRoot !== true) problems.push(`${where}: pod securityContext.runAsNonRoot must be true`);
    if (podSecurity.runAsUser === 0) problems.push(`${where}: runAsUser 0 is root`);
    const volumes = new Map((pod.volumes || []).map((v) => [v.name, v]));
    const containers = pod.containers || [];
    for (const c of containers) {
      const at = `${where} container ${c.name}`;
      const ports = new Map((c.ports || []).map((p) => [p.name, p.containerPort]));
      const portNumbers = new Set((c.ports || []).map((p) => p.containerPort));
      const image = String(c.image || '');
      if (/:latest$/.test(image)) problems.push(`${at}: image ${image} uses :latest`);
      if (!image.includes(':') && !image.includes('@') && !images.includes(image)) problems.push(`${at}: image ${image} has no tag and the kustomization does not set one`);

      // Environment: names gitdex reads, a valid role, secrets only by reference.
      const env = new Map((c.env || []).map((e) => [e.name, e]));
      for (const e of c.env || []) {
        if (!facts.envNames.has(e.name)) problems.push(`${at}: ${e.name} is not a variable gitdex reads (typo? see README "Configuration")`);
        if (facts.secretNames.has(e.name) && e.value !== undefined) problems.push(`${at}: ${e.name} has an inline value: use valueFrom.secretKeyRef`);
        const ref = e.valueFrom && e.valueFrom.secretKeyRef;
        if (ref) referencedSecrets.add(ref.name);
        const cmRef = e.valueFrom && e.valueFrom.configMapKeyRef;
        if (cmRef && !configMaps.has(cmRef.name) && !cmRef.optional) problems.push(`${at}: ConfigMap ${cmRef.name} is not defined`);
      }
      for (const from of c.envFrom || []) {
        if (from.configMapRef && !configMaps.has(from.configMapRef.name) && !from.configMapRef.optional) problems.push(`${at}: envFrom ConfigMap ${from.configMapRef.name} is not defined`);
        if (from.secretRef) referencedSecrets.add(from.secretRef.name);
      }
      const role = env.get('GITDEX_ROLE') && env.get('GITDEX_ROLE').value;
      const component = labels['app.kubernetes.io/component'];
      if (!role) problems.push(`${at}: GITDEX_ROLE is not set`);
      else if (!facts.roles.includes(role)) problems.push(`${at}: GITDEX_ROLE "${role}" is not one of ${facts.roles.join(', ')}`);
      else if (component && component !== role) problems.push(`${at}: GITDEX_ROLE ${role} but label app.kubernetes.io/component=${component}`);
      const fromConfig = Object.assign({}, ...(c.envFrom || []).map((f) => (f.configMapRef && configMaps.get(f.configMapRef.name) ? configMaps.get(f.configMapRef.name).data || {} : {})));
      const has = (v) => env.has(v) || v in fromConfig;
      if (role && role !== 'all') {
        for (const v of ['KAFKA_BROKERS', 'ELASTICSEARCH_URL']) if (!has(v)) problems.push(`${at}: role ${role} needs ${v} (else it falls back to the embedded SQLite stores)`);
        if (!has('HOST') || (fromConfig.HOST || (env.get('HOST') || {}).value) === '127.0.0.1') problems.push(`${at}: HOST must be 0.0.0.0 for the kubelet and Services to reach it`);
      }
      if (role === 'webhook' && !env.has('GITHUB_WEBHOOK_SECRETS')) problems.push(`${at}: role webhook needs GITHUB_WEBHOOK_SECRETS from a Secret`);
      if (role === 'indexer' && !['GITHUB_TOKEN', 'GITHUB_APP_ID'].some((v) => env.has(v)) && !(c.envFrom || []).some((f) => f.secretRef && !f.secretRef.optional))
        problems.push(`${at}: role indexer needs GitHub credentials (GITHUB_TOKEN or a GitHub App) from a Secret`);
      const port = Number(fromConfig.PORT || (env.get('PORT') || {}).value || facts.defaults.port);
      if (!portNumbers.has(port)) problems.push(`${at}: gitdex listens on ${port}, which is not a containerPort`);

      // Probes: process alive on /healthz, dependencies on /readyz, on a declared port.
      const probePort = (probe) => {
        const p = probe.httpGet && probe.httpGet.port;
        return typeof p === 'string' ? ports.get(p) : p;
      };
      for (const [kind, wanted] of [
        ['livenessProbe', '/healthz'],
        ['readinessProbe', '/readyz'],
        ['startupProbe', '/healthz'],
      ]) {
        const probe = c[kind];
        if (!probe) {
          if (kind !== 'startupProbe') problems.push(`${at}: no ${kind}`);
          continue;
        }
        if (!probe.httpGet) problems.push(`${at}: ${kind} should be an httpGet on ${wanted}`);
        else {
          if (probe.httpGet.path !== wanted) problems.push(`${at}: ${kind} asks ${probe.httpGet.path}, expected ${wanted}`);
          if (probePort(probe) !== port) problems.push(`${at}: ${kind} port ${probe.httpGet.port} is not the HTTP port ${port}`);
        }
      }

      // Resources: requests and limits, and a V8 heap that fits in the memory limit.
      const resources = c.resources || {};
      for (const kind of ['requests', 'limits']) for (const r of ['cpu', 'memory']) if (!resources[kind] || resources[kind][r] === undefined) problems.push(`${at}: resources.${kind}.${r} is not set`);
      const memoryLimit = quantity(resources.limits && resources.limits.memory);
      const heap = /--max-old-space-size=(\d+)/.exec((env.get('NODE_OPTIONS') || {}).value || '');
      if (heap && Number.isFinite(memoryLimit) && Number(heap[1]) * 1024 * 1024 > 0.8 * memoryLimit)
        problems.push(`${at}: --max-old-space-size=${heap[1]} leaves too little of the ${resources.limits.memory} limit for buffers and native memory (keep it under 80 %)`);
      if (resources.requests && resources.limits) {
        for (const r of ['cpu', 'memory']) {
          if (quantity(resources.requests[r]) > quantity(resources.limits[r])) problems.push(`${at}: requests.${r} is above limits.${r}`);
        }
      }

      // Security: no privilege escalation, no capabilities, read-only root with a writable /tmp.
      const security = c.securityContext || {};
      if (security.allowPrivilegeEscalation !== false) problems.push(`${at}: securityContext.allowPrivilegeEscalation must be false`);
      if (security.readOnlyRootFilesystem !== true) problems.push(`${at}: securityContext.readOnlyRootFilesystem must be true`);
      if (!(security.capabilities && (security.capabilities.drop || []).includes('ALL'))) problems.push(`${at}: securityContext.capabilities.drop must include ALL`);
      if (security.privileged) problems.push(`${at}: privileged`);
      const mounts = c.volumeMounts || [];
      for (const m of mounts) if (!volumes.has(m.name)) problems.push(`${at}: volumeMount ${m.name} has no volume`);
      const tmp = mounts.find((m) => m.mountPath === '/tmp');
      if (security.readOnlyRootFilesystem === true && !(tmp && volumes.get(tmp.name) && volumes.get(tmp.name).emptyDir))
        problems.push(`${at}: a read-only root filesystem needs an emptyDir mounted at /tmp`);
    }
  }

  const podsOf = (selector) => deployments.filter((d) => matches(selector, d.spec && d.spec.template && d.spec.template.metadata && d.spec.template.metadata.labels));
  const deploymentNamed = (n) => deployments.find((d) => d.metadata.name === n);

  for (const s of byKind('Service')) {
    const targets = podsOf(s.spec && s.spec.selector);
    if (targets.length !== 1) {
      problems.push(`${name(s)}: its selector matches ${targets.length} Deployments, expected 1`);
      continue;
    }
    const containers = targets[0].spec.template.spec.containers || [];
    for (const p of (s.spec && s.spec.ports) || []) {
      const target = p.targetPort === undefined ? p.port : p.targetPort;
      const ok = containers.some((c) => (c.ports || []).some((cp) => cp.name === target || cp.containerPort === target));
      if (!ok) problems.push(`${name(s)}: targetPort ${target} is not a port of ${name(targets[0])}`);
    }
  }

  const autoscaled = new Map();
  const minReplicasOf = (deployment) => {
    const scaler = autoscaled.get(deployment.metadata.name);
    return scaler ? scaler.min : (deployment.spec.replicas ?? 1);
  };
  for (const h of byKind('HorizontalPodAutoscaler')) {
    const ref = (h.spec && h.spec.scaleTargetRef) || {};
    const target = ref.kind === 'Deployment' ? deploymentNamed(ref.name) : null;
    if (!target) problems.push(`${name(h)}: scaleTargetRef ${ref.kind}/${ref.name} is not a Deployment of this set`);
    if ((h.spec.minReplicas ?? 1) > h.spec.maxReplicas) problems.push(`${name(h)}: minReplicas is above maxReplicas`);
    for (const m of h.spec.metrics || []) {
      if (m.type === 'Resource' && target) {
        const resource = m.resource.name;
        for (const c of target.spec.template.spec.containers)
          if (!(c.resources && c.resources.requests && c.resources.requests[resource]))
            problems.push(`${name(h)}: scales on ${resource} utilisation, but ${name(target)} container ${c.name} has no ${resource} request`);
      }
      for (const key of ['external', 'pods', 'object']) {
        const metric = m[key] && m[key].metric && m[key].metric.name;
        if (metric && metric.startsWith('gitdex_') && !facts.metricNames.has(metric))
          problems.push(`${name(h)}: metric ${metric} is not exported by gitdex (known: ${[...facts.metricNames].join(', ')})`);
      }
    }
    if (target && /indexer/.test(ref.name) && h.spec.maxReplicas > partitions)
      problems.push(`${name(h)}: maxReplicas ${h.spec.maxReplicas} is above the ${partitions} partitions of ${facts.eventsTopic}: the extra workers would idle`);
    if (target) {
      if (autoscaled.has(ref.name)) problems.push(`${name(h)}: ${ref.name} already has an autoscaler (${autoscaled.get(ref.name).by})`);
      autoscaled.set(ref.name, { by: name(h), min: h.spec.minReplicas ?? 1 });
    }
  }
  for (const so of byKind('ScaledObject')) {
    const ref = (so.spec && so.spec.scaleTargetRef) || {};
    const target = (!ref.kind || ref.kind === 'Deployment') && deploymentNamed(ref.name);
    if (!target) problems.push(`${name(so)}: scaleTargetRef ${ref.name} is not a Deployment of this set`);
    else {
      if (autoscaled.has(ref.name)) problems.push(`${name(so)}: ${ref.name} already has an autoscaler (${autoscaled.get(ref.name).by}); KEDA makes its own HPA`);
      autoscaled.set(ref.name, { by: name(so), min: so.spec.minReplicaCount ?? 0 });
    }
    for (const t of so.spec.triggers || []) {
      if (t.type !== 'kafka') continue;
      const m = t.metadata || {};
      if (m.topic !== facts.eventsTopic) problems.push(`${name(so)}: kafka trigger topic ${m.topic}, gitdex consumes ${facts.eventsTopic}`);
      if (m.consumerGroup !== facts.consumerGroup) problems.push(`${name(so)}: kafka trigger consumerGroup ${m.consumerGroup}, the indexer's group is ${facts.consumerGroup}`);
    }
    if ((so.spec.maxReplicaCount ?? 100) > partitions) problems.push(`${name(so)}: maxReplicaCount above the ${partitions} partitions of ${facts.eventsTopic}`);
  }

  for (const pdb of byKind('PodDisruptionBudget')) {
    const targets = podsOf(pdb.spec && pdb.spec.selector && pdb.spec.selector.matchLabels);
    if (targets.length !== 1) {
      problems.push(`${name(pdb)}: its selector matches ${targets.length} Deployments, expected 1`);
      continue;
    }
    const min = pdb.spec.minAvailable;
    if (typeof min === 'number' && min >= minReplicasOf(targets[0])) problems.push(`${name(pdb)}: minAvailable ${min} with at least ${minReplicasOf(targets[0])} replicas blocks every node drain`);
  }

  for (const np of byKind('NetworkPolicy')) {
    const targets = podsOf(np.spec && np.spec.podSelector && np.spec.podSelector.matchLabels);
    if (targets.length === 0) problems.push(`${name(np)}: its podSelector matches no Deployment`);
    for (const rule of np.spec.ingress || []) {
      for (const p of rule.ports || []) {
        if (typeof p.port === 'string' && !targets.every((d) => d.spec.template.spec.containers.some((c) => (c.ports || []).some((cp) => cp.name === p.port))))
          problems.push(`${name(np)}: port ${p.port} is not a named port of every selected pod`);
      }
    }
  }

  if (docs !== undefined) {
    for (const secret of referencedSecrets) if (!docs.includes(secret)) problems.push(`Secret ${secret} is referenced but docs/deploy.md does not say how to create it`);
  }
  return problems;
}

/** Every YAML document of a file, each with where it came from. */
function readManifests(file) {
  const { values, errors } = parseYamlDocuments(fs.readFileSync(file, 'utf8'));
  return { objects: values.filter((v) => v !== null && v !== undefined), errors };
}

/**
 * Follows a kustomization's resources (files and folders with a kustomization.yaml) and
 * collects its objects; reports missing resources, unknown keys, inlined secrets, and
 * manifests in its folder that no kustomization lists.
 */
function collectKustomization(dir, root, state = { problems: [], objects: [], images: new Set(), visited: new Set() }) {
  const rel = (p) => path.relative(root, p) || '.';
  const file = path.join(dir, 'kustomization.yaml');
  if (state.visited.has(dir)) return state;
  state.visited.add(dir);
  const { objects, errors } = readManifests(file);
  for (const e of errors) state.problems.push(`${rel(file)}: YAML: ${e}`);
  const k = objects[0] || {};
  if (k.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || k.kind !== 'Kustomization') state.problems.push(`${rel(file)}: expected apiVersion kustomize.config.k8s.io/v1beta1, kind Kustomization`);
  for (const key of Object.keys(k))
    if (!KUSTOMIZATION_KEYS.has(key)) state.problems.push(`${rel(file)}: unknown or unsupported field "${key}"${key === 'secretGenerator' ? ' (secret values stay out of the repository)' : ''}`);
  for (const image of k.images || []) {
    state.images.add(image.name);
    if (!image.newTag && !image.digest) state.problems.push(`${rel(file)}: image ${image.name} has no newTag`);
  }
  const listed = new Set();
  for (const resource of k.resources || []) {
    const target = path.resolve(dir, resource);
    if (/^[a-z]+:\/\//.test(resource) || resource.startsWith('github.com/')) {
      state.problems.push(`${rel(file)}: remote resource ${resource} cannot be checked offline`);
      continue;
    }
    if (!fs.existsSync(target)) {
      state.problems.push(`${rel(file)}: resource ${resource} does not exist`);
      continue;
    }
    listed.add(target);
    if (fs.statSync(target).isDirectory()) {
      if (!fs.existsSync(path.join(target, 'kustomization.yaml'))) state.problems.push(`${rel(file)}: resource ${resource} is a folder without kustomization.yaml`);
      else collectKustomization(target, root, state);
      continue;
    }
    const manifests = readManifests(target);
    for (const e of manifests.errors) state.problems.push(`${rel(target)}: YAML: ${e}`);
    for (const obj of manifests.objects) {
      for (const problem of validateKubernetesObject(obj)) state.problems.push(`${rel(target)}: ${obj.kind || '?'}/${(obj.metadata && obj.metadata.name) || '?'}: ${problem}`);
      state.objects.push(obj);
    }
  }
  for (const patch of k.patches || []) {
    if (patch.path && !fs.existsSync(path.resolve(dir, patch.path))) state.problems.push(`${rel(file)}: patch ${patch.path} does not exist`);
  }
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    if (/\.ya?ml$/.test(name) && name !== 'kustomization.yaml' && !listed.has(full)) state.problems.push(`${rel(full)}: not listed in ${rel(file)} resources (a manifest nobody applies)`);
  }
  return state;
}

/** Kustomization folders under dir that no other kustomization includes: what users apply. */
function entryKustomizations(dir) {
  const all = [];
  const walk = (d) => {
    if (fs.existsSync(path.join(d, 'kustomization.yaml'))) all.push(d);
    for (const name of fs.readdirSync(d)) if (fs.statSync(path.join(d, name)).isDirectory()) walk(path.join(d, name));
  };
  walk(dir);
  const included = new Set();
  for (const d of all) {
    const { objects } = readManifests(path.join(d, 'kustomization.yaml'));
    for (const r of (objects[0] && objects[0].resources) || []) included.add(path.resolve(d, r));
  }
  return all.filter((d) => !included.has(d));
}

/** `kubectl kustomize` where kubectl is installed (it bundles kustomize and needs no cluster). */
function kustomizeBuild(dir) {
  const result = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', timeout: 60_000 });
  if (result.error && result.error.code === 'ENOENT') return { skipped: 'kubectl is not installed' };
  if (result.error) return { error: result.error.message };
  if (result.status !== 0) return { error: (result.stderr || '').trim().split('\n').slice(-3).join(' ') };
  return { objects: parseYamlDocuments(result.stdout).values.filter(Boolean) };
}

module.exports = { validateKubernetesObject, validateKubernetesSet, collectKustomization, entryKustomizations, kustomizeBuild, readManifests };
