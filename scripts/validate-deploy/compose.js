'use strict';
// docker-compose.yml without Docker: YAML parsed strictly, variables interpolated the way
// Compose does, the result validated against the Compose Specification schema (vendored,
// see schemas/README.md), then cross-checked: dependencies, health checks, volumes, and
// that every gitdex service gets a valid role and the variables its role needs.

const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const { loadSchemas, check } = require('./schemas');

/** Values the check interpolates with: only the variables the file requires (":?"). */
const SAMPLE_ENVIRONMENT = { GITHUB_WEBHOOK_SECRETS: 'validate-deploy-sample-secret' };

function parseYamlDocuments(text) {
  const docs = YAML.parseAllDocuments(text, { merge: true, uniqueKeys: true, prettyErrors: true });
  const errors = docs.flatMap((d) => [...d.errors, ...d.warnings].map((e) => e.message.split('\n')[0]));
  return { values: errors.length > 0 ? [] : docs.map((d) => d.toJS({ maxAliasCount: 100 })), errors };
}

/**
 * Compose interpolation: $$, $NAME, ${NAME}, ${NAME:-default}, ${NAME-default},
 * ${NAME:?message}, ${NAME?message}, ${NAME:+alternative}, ${NAME+alternative}.
 */
function interpolateString(text, env, report) {
  return text.replace(/\$\$|\$\{([^}]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced, bare) => {
    if (whole === '$$') return '$';
    const expression = braced !== undefined ? braced : bare;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(expression);
    if (!m) {
      report.invalid.push(whole);
      return '';
    }
    const [, name, op, arg = ''] = m;
    const value = env[name];
    const set = value !== undefined;
    const nonEmpty = set && value !== '';
    switch (op) {
      case ':-':
        return nonEmpty ? value : arg;
      case '-':
        return set ? value : arg;
      case ':?':
      case '?':
        report.required.set(name, arg);
        if (op === ':?' ? !nonEmpty : !set) report.missing.push(`${name}: ${arg || 'required'}`);
        return value ?? '';
      case ':+':
        return nonEmpty ? arg : '';
      case '+':
        return set ? arg : '';
      default:
        if (!set) report.unset.add(name);
        return value ?? '';
    }
  });
}

function interpolate(node, env, report) {
  if (typeof node === 'string') return interpolateString(node, env, report);
  if (Array.isArray(node)) return node.map((v) => interpolate(v, env, report));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolate(v, env, report)]));
  return node;
}

/** environment as a map or as a list of NAME=value / NAME. */
function environmentOf(service) {
  const env = service.environment;
  if (!env) return {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const i = String(entry).indexOf('=');
        return i === -1 ? [String(entry), undefined] : [String(entry).slice(0, i), String(entry).slice(i + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null || v === undefined ? undefined : String(v)]));
}

function dependenciesOf(service) {
  const deps = service.depends_on;
  if (!deps) return {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, { condition: 'service_started' }]));
  return deps;
}

function hasHealthcheck(service) {
  const hc = service.healthcheck;
  if (!hc || hc.disable === true) return false;
  const test = Array.isArray(hc.test) ? hc.test : hc.test ? [hc.test] : [];
  return test.length > 0 && test[0] !== 'NONE';
}

function healthcheckText(service) {
  const test = service.healthcheck && service.healthcheck.test;
  return Array.isArray(test) ? test.join(' ') : String(test || '');
}

function isOneShot(service) {
  return service.restart === 'no' || service.restart === false;
}

/** Short volume syntax "source:target[:mode]" or the long form. */
function volumesOf(service) {
  return (service.volumes || []).map((v) => {
    if (typeof v === 'string') {
      const [source, target] = v.split(':');
      const type = target === undefined ? 'volume' : /^[./~]/.test(source) ? 'bind' : 'volume';
      return { type, source: target === undefined ? undefined : source, target: target === undefined ? source : target };
    }
    return v;
  });
}

/** Kafka or Elasticsearch (or OpenSearch), by image or service name. */
function isEngine(name, service) {
  return /kafka|elasticsearch|opensearch/.test(`${name} ${String(service.image || '')}`) && !service.build;
}

/** "host:port" of a published port's container side. */
function containerPortsOf(service) {
  return (service.ports || []).map((p) => {
    if (typeof p === 'number') return String(p);
    if (typeof p === 'object') return String(p.target);
    const parts = String(p).split('/')[0].split(':');
    return parts[parts.length - 1];
  });
}

/**
 * Validates a compose document (already parsed). `raw` is the document before interpolation
 * (to tell a literal secret from a ${VARIABLE}); `root` (optional) lets bind mounts and the
 * build context be checked against the repository.
 */
function validateComposeDocument(raw, { facts, env = SAMPLE_ENVIRONMENT, root, docs } = {}) {
  const problems = [];
  const report = { required: new Map(), missing: [], unset: new Set(), invalid: [] };
  const doc = interpolate(raw, env, report);
  for (const m of report.missing) problems.push(`required variable not set while checking: ${m}`);
  for (const name of report.unset) problems.push(`\${${name}} has no default: write \${${name}:-} or \${${name}:?message} so an unset variable is a decision`);
  for (const e of report.invalid) problems.push(`invalid interpolation ${e}`);

  const schema = loadSchemas();
  for (const message of check(schema.compose, doc)) problems.push(`Compose Specification: ${message}`);
  if (!doc || typeof doc !== 'object' || !doc.services || typeof doc.services !== 'object') {
    problems.push('no services');
    return { problems, required: report.required };
  }

  const services = doc.services;
  const names = Object.keys(services);
  const declaredVolumes = new Set(Object.keys(doc.volumes || {}));
  const roles = new Map();

  for (const [name, service] of Object.entries(services)) {
    if (!service || typeof service !== 'object') continue;
    const where = `service ${name}`;
    if (!service.image && !service.build) problems.push(`${where}: needs an image or a build`);
    if (!isOneShot(service) && !hasHealthcheck(service)) problems.push(`${where}: no healthcheck (others cannot wait for it to be healthy)`);
    // Kafka and Elasticsearch run without authentication here: a published port hands the
    // index and the event log to whoever reaches the host. The override file opts in.
    if (isEngine(name, service) && (service.ports || []).length > 0 && !(service.profiles || []).length)
      problems.push(
        `${where}: publishes ${(service.ports || []).join(', ')} on the host; the engines have no authentication here: publish them only from docker-compose.override.yml (see docker-compose.override.example.yml) or a profile`,
      );
    for (const [dep, spec] of Object.entries(dependenciesOf(service))) {
      const condition = (spec && spec.condition) || 'service_started';
      if (!services[dep]) problems.push(`${where}: depends_on names "${dep}", which is not a service`);
      else if (condition === 'service_healthy' && !hasHealthcheck(services[dep])) problems.push(`${where}: waits for "${dep}" to be healthy, but ${dep} has no healthcheck`);
      else if (condition === 'service_completed_successfully' && !isOneShot(services[dep])) problems.push(`${where}: waits for "${dep}" to complete, but ${dep} restarts (set restart: "no")`);
      if (dep === name) problems.push(`${where}: depends on itself`);
    }
    for (const volume of volumesOf(service)) {
      if (volume.type === 'volume' && volume.source && !declaredVolumes.has(volume.source)) problems.push(`${where}: volume "${volume.source}" is not declared under top-level volumes`);
      if (volume.type === 'bind' && root && !fs.existsSync(path.resolve(root, volume.source))) problems.push(`${where}: bind mount ${volume.source} does not exist in the repository`);
    }
    if (service.build && root) {
      const context = typeof service.build === 'string' ? service.build : service.build.context || '.';
      const dockerfile = (typeof service.build === 'object' && service.build.dockerfile) || 'Dockerfile';
      if (!fs.existsSync(path.resolve(root, context, dockerfile))) problems.push(`${where}: build ${context}/${dockerfile} does not exist`);
    }

    // gitdex services: built from this repository (or its image), choose a role with GITDEX_ROLE.
    const isGitdex = Boolean(service.build) || /^gitdex(:|$)/.test(String(service.image || ''));
    if (!isGitdex) continue;
    const environment = environmentOf(service);
    const rawEnvironment = environmentOf((raw.services || {})[name] || {});
    const role = environment.GITDEX_ROLE;
    if (!role) problems.push(`${where}: GITDEX_ROLE is not set (one of ${facts.roles.join(', ')})`);
    else if (!facts.roles.includes(role)) problems.push(`${where}: GITDEX_ROLE "${role}" is not one of ${facts.roles.join(', ')}`);
    else roles.set(role, [...(roles.get(role) || []), name]);
    for (const variable of Object.keys(environment)) {
      if (!facts.envNames.has(variable)) problems.push(`${where}: ${variable} is not a variable gitdex reads (typo? see README "Configuration")`);
    }
    for (const variable of facts.secretNames) {
      const value = rawEnvironment[variable];
      if (value !== undefined && value !== '' && !/^\$\{[A-Za-z_][A-Za-z0-9_]*(:?[-?][^}]*)?\}$/.test(value))
        problems.push(`${where}: ${variable} is written in the file: take it from the environment (\${${variable}:?...})`);
    }
    if (role && role !== 'all') {
      // A split role needs both engines: without them gitdex falls back to the embedded
      // SQLite stores in GITDEX_DATA_DIR, which the other services cannot see.
      for (const variable of ['KAFKA_BROKERS', 'ELASTICSEARCH_URL']) {
        if (!environment[variable]) problems.push(`${where}: role ${role} needs ${variable}`);
      }
    }
    if (environment.HOST && environment.HOST !== '0.0.0.0' && environment.HOST !== '::') problems.push(`${where}: HOST=${environment.HOST} is not reachable from other containers: use 0.0.0.0`);
    if (role === 'webhook' || role === 'all') {
      if (!environment.GITHUB_WEBHOOK_SECRETS) problems.push(`${where}: role ${role} needs GITHUB_WEBHOOK_SECRETS (deliveries are refused without it)`);
    }
    if (role === 'indexer' || role === 'all') {
      const declared = (v) => Object.prototype.hasOwnProperty.call(environment, v);
      if (!declared('GITHUB_TOKEN') && !(declared('GITHUB_APP_ID') && declared('GITHUB_APP_PRIVATE_KEY')))
        problems.push(`${where}: role ${role} reads GitHub: pass GITHUB_TOKEN or GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY`);
    }
    const port = environment.PORT || String(facts.defaults.port);
    for (const target of containerPortsOf(service)) {
      if (target !== port) problems.push(`${where}: publishes container port ${target}, but gitdex listens on PORT ${port}`);
    }
    if (hasHealthcheck(service) && !/\/(healthz|readyz)\b/.test(healthcheckText(service))) problems.push(`${where}: healthcheck should ask /healthz or /readyz`);

    // The engines it names are services, and it waits for those its role needs at start:
    // the webhook publishes to Kafka, the reader opens the index, the indexer both.
    const deps = dependenciesOf(service);
    const engineHosts = [];
    const needs = { webhook: ['KAFKA_BROKERS'], reader: ['ELASTICSEARCH_URL'] }[role] || ['KAFKA_BROKERS', 'ELASTICSEARCH_URL'];
    for (const broker of (environment.KAFKA_BROKERS || '')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean))
      engineHosts.push(['KAFKA_BROKERS', broker.split(':')[0], broker]);
    if (environment.ELASTICSEARCH_URL) {
      try {
        engineHosts.push(['ELASTICSEARCH_URL', new URL(environment.ELASTICSEARCH_URL).hostname, environment.ELASTICSEARCH_URL]);
      } catch {
        problems.push(`${where}: ELASTICSEARCH_URL "${environment.ELASTICSEARCH_URL}" is not a URL`);
      }
    }
    for (const [variable, host, value] of engineHosts) {
      if (!services[host]) problems.push(`${where}: ${variable}=${value} names host "${host}", which is not a service`);
      else if (needs.includes(variable) && (!deps[host] || deps[host].condition !== 'service_healthy'))
        problems.push(`${where}: uses ${host} (${variable}) but does not wait for it (depends_on ${host}: condition: service_healthy)`);
    }
    if (environment.KAFKA_BROKERS) {
      for (const broker of environment.KAFKA_BROKERS.split(',').map((b) => b.trim())) {
        const kafka = services[broker.split(':')[0]];
        const advertised = kafka ? environmentOf(kafka).KAFKA_ADVERTISED_LISTENERS || '' : '';
        if (kafka && advertised && !advertised.split(',').some((l) => l.endsWith(`//${broker}`)))
          problems.push(`${where}: KAFKA_BROKERS ${broker} is not one of the advertised listeners of ${broker.split(':')[0]} (${advertised})`);
      }
    }
  }

  for (const role of ['webhook', 'indexer', 'reader']) {
    const users = roles.get(role) || [];
    if (users.length === 0 && !roles.has('all')) problems.push(`no service runs GITDEX_ROLE=${role}`);
    if (users.length > 1) problems.push(`GITDEX_ROLE=${role} is run by several services (${users.join(', ')}): scale one with --scale instead`);
  }

  // Kafka in KRaft mode: a valid cluster id and a quorum that names this node.
  for (const [name, service] of Object.entries(services)) {
    if (!/kafka/.test(String(service.image || ''))) continue;
    const environment = environmentOf(service);
    if (!environment.KAFKA_PROCESS_ROLES) continue;
    const id = environment.CLUSTER_ID || '';
    if (Buffer.from(id, 'base64url').length !== 16 || !/^[A-Za-z0-9_-]{22}$/.test(id))
      problems.push(`service ${name}: CLUSTER_ID "${id}" is not a base64 UUID (22 characters, e.g. from kafka-storage.sh random-uuid)`);
    const voters = environment.KAFKA_CONTROLLER_QUORUM_VOTERS || '';
    if (!voters.split(',').some((v) => v.startsWith(`${environment.KAFKA_NODE_ID}@`)))
      problems.push(`service ${name}: KAFKA_CONTROLLER_QUORUM_VOTERS (${voters}) does not name KAFKA_NODE_ID ${environment.KAFKA_NODE_ID}`);
  }

  // Every variable the file requires is explained in the deployment guide.
  if (docs !== undefined) {
    for (const name of report.required.keys()) if (!docs.includes(name)) problems.push(`\${${name}} is required but docs/deploy.md does not mention it`);
  }
  return { problems, required: report.required };
}

/** Parses and validates compose file text. */
function validateComposeText(text, options) {
  const { values, errors } = parseYamlDocuments(text);
  if (errors.length > 0) return { problems: errors.map((e) => `YAML: ${e}`), required: new Map() };
  if (values.length !== 1) return { problems: [`expected one YAML document, found ${values.length}`], required: new Map() };
  return validateComposeDocument(values[0], options);
}

module.exports = { validateComposeText, validateComposeDocument, interpolate, parseYamlDocuments, SAMPLE_ENVIRONMENT };
