'use strict';
// What the deployment files must agree with, read from the code itself so that a renamed
// variable, topic or metric fails the check instead of silently drifting: the environment
// variables gitdex reads (libs/contracts EnvSchema), the roles, the topics and consumer
// group, the metric names, and the index templates ensureReady puts (captured from the
// real code, see elasticsearchTemplates).

const fs = require('node:fs');
const path = require('node:path');

/** Variables read from process.env outside EnvSchema: by main.ts or by Node.js itself. */
const PROCESS_VARIABLES = ['GITDEX_ROLE', 'NODE_ENV', 'NODE_OPTIONS'];
/** Values that are secrets: never literal in a compose file, never in a ConfigMap. */
const SECRET_VARIABLES = [
  'GITHUB_TOKEN',
  'GITHUB_APP_PRIVATE_KEY',
  'GITHUB_WEBHOOK_SECRETS',
  'GITDEX_READER_TOKENS',
  'KAFKA_SASL_PASSWORD',
  'KAFKA_SSL_KEY_PASSWORD',
  'ELASTICSEARCH_API_KEY',
  'ELASTICSEARCH_PASSWORD',
];
/** What main.ts accepted when this was written; used only if ROLES cannot be read from run.ts. */
const FALLBACK_ROLES = ['all', 'webhook', 'indexer', 'reader'];

function read(root, rel) {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}

/** TypeScript files under <top>/<package>/src of the given top folders, relative to root. */
function sourceFiles(root, tops) {
  const out = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(child);
    }
  };
  for (const top of tops) {
    if (!fs.existsSync(path.join(root, top))) continue;
    for (const pkg of fs.readdirSync(path.join(root, top))) if (fs.existsSync(path.join(root, top, pkg, 'src'))) walk(`${top}/${pkg}/src`);
  }
  return out;
}

function match(root, rel, pattern, what) {
  const text = read(root, rel);
  const found = pattern.exec(text);
  if (!found) throw new Error(`validate-deploy: cannot find ${what} in ${rel}; update scripts/validate-deploy/facts.js`);
  return found;
}

/**
 * The composable index templates gitdex puts on start, captured by running the real
 * ensureIndices (libs/elasticsearch/src/setup.ts) against a recording stand-in for the
 * Elasticsearch client that reports every alias as already there. Keyed by template name,
 * without the name itself (it is the URL of PUT _index_template/<name>).
 */
async function elasticsearchTemplates(setup, prefix) {
  const templates = {};
  let last = null;
  const indices = {
    putIndexTemplate: async ({ name, ...body }) => {
      templates[name] = body;
      last = name;
      return { acknowledged: true };
    },
    existsAlias: async () => true,
    // Fields added to a mapping version since its index was made reach existing indices here.
    putMapping: async () => ({ acknowledged: true }),
    // Settings an operator may have set on an existing index: answered as all set, so nothing is changed.
    getSettings: async () => ({ [last]: { settings: { 'index.refresh_interval': '1s' } } }),
    getAlias: async ({ name }) => ({ [last]: { aliases: { [name]: {} } } }),
  };
  const unexpected = (target, path) =>
    new Proxy(target, {
      get(object, key) {
        if (key in object || typeof key === 'symbol' || key === 'then') return object[key];
        throw new Error(`validate-deploy: ensureIndices used ${path}.${String(key)}, which the template capture in scripts/validate-deploy/facts.js does not imitate`);
      },
    });
  await setup.ensureIndices(unexpected({ indices: unexpected(indices, 'client.indices') }, 'client'), prefix);
  if (Object.keys(templates).length === 0) throw new Error('validate-deploy: ensureIndices put no index template; update scripts/validate-deploy/facts.js');
  return templates;
}

/**
 * Reads the facts. `loadTs(relativePath)` loads a TypeScript module of the repository: the
 * CLI passes tsx's require, jest its own (which compiles TypeScript), so no build is needed.
 */
async function loadFacts(root, loadTs) {
  const contracts = loadTs('libs/contracts/src/index.ts');
  const setup = loadTs('libs/elasticsearch/src/setup.ts');
  // Each variable's default on its own, so a variable that becomes required elsewhere does not matter here.
  const shape = contracts.EnvSchema.shape;
  const defaults = Object.fromEntries(
    Object.keys(shape).map((key) => {
      const parsed = shape[key].safeParse(undefined);
      return [key, parsed.success ? parsed.data : undefined];
    }),
  );
  let roles = FALLBACK_ROLES;
  let rolesFrom = 'fallback';
  try {
    const [, list] = match(root, 'services/gitdex/src/run.ts', /export const ROLES[^=]*=\s*\[([^\]]*)\]/, 'the ROLES list');
    roles = [...list.matchAll(/'([a-z]+)'/g)].map((m) => m[1]);
    rolesFrom = 'services/gitdex/src/run.ts';
  } catch {
    // main.ts not written yet, or ROLES moved: keep the README's roles.
  }
  // The consumer group and topic are settings (KAFKA_GROUP_ID, KAFKA_TOPIC) where EnvSchema
  // has them, else the adapter's defaults.
  const consumerGroup = defaults.KAFKA_GROUP_ID ?? match(root, 'libs/kafka/src/consumer.ts', /groupId \?\? '([^']+)'/, 'the default consumer group')[1];
  const eventsTopic = defaults.KAFKA_TOPIC ?? contracts.EVENTS_TOPIC;
  // Prometheus metric names registered anywhere in the services and libraries.
  const metricNames = new Set();
  for (const rel of sourceFiles(root, ['services', 'libs'])) {
    for (const m of read(root, rel).matchAll(/name: '(gitdex_[a-z0-9_]+)'/g)) metricNames.add(m[1]);
  }
  return {
    envNames: new Set([...Object.keys(shape), ...PROCESS_VARIABLES]),
    secretNames: new Set(SECRET_VARIABLES),
    roles,
    rolesFrom,
    eventsTopic,
    deadLetterTopic: contracts.DEAD_LETTER_TOPIC ?? `${eventsTopic}.dlq`,
    consumerGroup,
    defaults: { port: defaults.PORT, partitions: defaults.KAFKA_PARTITIONS, indexPrefix: defaults.ELASTICSEARCH_INDEX_PREFIX },
    metricNames,
    lagMetric: 'gitdex_indexer_consumer_lag',
    elasticsearchTemplates: await elasticsearchTemplates(setup, defaults.ELASTICSEARCH_INDEX_PREFIX),
  };
}

module.exports = { loadFacts, elasticsearchTemplates, SECRET_VARIABLES };
