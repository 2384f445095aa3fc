// docker-compose.yml is checked without Docker: Compose interpolation, the Compose
// Specification schema and cross-references. Each case breaks the real file in one place.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFacts, parseYamlDocuments, validateComposeDocument, validateComposeText, type Facts } from '../../scripts/validate-deploy/index.js';

const root = join(__dirname, '..', '..');
const text = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
let facts: Facts;

beforeAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loadFacts takes a synchronous loader: jest's require compiles the TypeScript module
  facts = await loadFacts(root, (rel) => require(join(root, rel)));
}, 60_000);

/** A fresh copy of the real compose document, to break. */
function compose(): any {
  const { values, errors } = parseYamlDocuments(text);
  expect(errors).toEqual([]);
  return structuredClone(values[0]);
}

function problemsOf(doc: unknown, env?: Record<string, string>): string[] {
  return validateComposeDocument(doc, { facts, root, ...(env ? { env } : {}) }).problems;
}

describe('docker-compose.yml checks', () => {
  it('accept the repository compose file, and name the variables it requires', () => {
    const result = validateComposeText(text, { facts, root });
    expect(result.problems).toEqual([]);
    expect([...result.required.keys()]).toContain('GITHUB_WEBHOOK_SECRETS');
  });

  it('run the three roles, each with the engines it needs', () => {
    const doc = compose();
    const roles = Object.values<any>(doc.services)
      .map((s) => s.environment?.GITDEX_ROLE)
      .filter(Boolean);
    expect(roles.sort()).toEqual(['indexer', 'reader', 'webhook']);
    expect(doc.services.webhook.depends_on.kafka.condition).toBe('service_healthy');
    expect(doc.services.indexer.depends_on.elasticsearch.condition).toBe('service_healthy');
  });

  it('reject a field the Compose Specification does not have', () => {
    const doc = compose();
    doc.services.reader.helthcheck = doc.services.reader.healthcheck;
    expect(problemsOf(doc)).toEqual(expect.arrayContaining([expect.stringMatching(/Compose Specification: .*helthcheck/)]));
  });

  it('reject a value the Compose Specification does not allow', () => {
    const doc = compose();
    doc.services.webhook.depends_on.kafka.condition = 'service_ready';
    doc.services.kafka.healthcheck.test = { cmd: 'true' };
    const problems = problemsOf(doc);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Compose Specification: \/services\/webhook\/depends_on\/kafka\/condition/),
        expect.stringMatching(/Compose Specification: \/services\/kafka\/healthcheck\/test/),
      ]),
    );
  });

  it('reject depends_on a service that does not exist', () => {
    const doc = compose();
    doc.services.indexer.depends_on.zookeeper = { condition: 'service_started' };
    expect(problemsOf(doc)).toEqual(expect.arrayContaining([expect.stringMatching(/depends_on names "zookeeper"/)]));
  });

  it('reject waiting for a healthy service that has no healthcheck', () => {
    const doc = compose();
    delete doc.services.elasticsearch.healthcheck;
    expect(problemsOf(doc)).toEqual(expect.arrayContaining([expect.stringMatching(/waits for "elasticsearch" to be healthy, but elasticsearch has no healthcheck/)]));
  });

  it('reject an invalid or missing GITDEX_ROLE', () => {
    const doc = compose();
    doc.services.reader.environment.GITDEX_ROLE = 'readers';
    delete doc.services.indexer.environment.GITDEX_ROLE;
    const problems = problemsOf(doc);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/GITDEX_ROLE "readers" is not one of/), expect.stringMatching(/service indexer: GITDEX_ROLE is not set/)]));
  });

  it('reject a split role without Kafka or Elasticsearch', () => {
    const doc = compose();
    delete doc.services.indexer.environment.KAFKA_BROKERS;
    expect(problemsOf(doc)).toEqual(expect.arrayContaining([expect.stringMatching(/role indexer needs KAFKA_BROKERS/)]));
  });

  it('reject a variable gitdex does not read (a typo)', () => {
    const doc = compose();
    doc.services.reader.environment.ELASTICSEARCH_URI = 'http://elasticsearch:9200';
    expect(problemsOf(doc)).toEqual(expect.arrayContaining([expect.stringMatching(/ELASTICSEARCH_URI is not a variable gitdex reads/)]));
  });

  it('reject a secret written in the file', () => {
    const doc = compose();
    doc.services.indexer.environment.GITHUB_TOKEN = 'ghp_literal';
    expect(problemsOf(doc)).toEqual(expect.arrayContaining([expect.stringMatching(/GITHUB_TOKEN is written in the file/)]));
  });

  it('reject an engine address that is not a service, or that the service does not wait for', () => {
    const doc = compose();
    doc.services.reader.environment.ELASTICSEARCH_URL = 'http://search:9200';
    delete doc.services.indexer.depends_on.elasticsearch;
    const problems = problemsOf(doc);
    expect(problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/names host "search", which is not a service/), expect.stringMatching(/service indexer: uses elasticsearch .* but does not wait for it/)]),
    );
  });

  it('reject a published port that gitdex does not listen on', () => {
    const doc = compose();
    doc.services.webhook.ports = ['8081:3000'];
    expect(problemsOf(doc)).toEqual(expect.arrayContaining([expect.stringMatching(/publishes container port 3000/)]));
  });

  it('reject an undeclared named volume and an invalid Kafka cluster id', () => {
    const doc = compose();
    doc.services.kafka.volumes = ['kafka-logs:/var/lib/kafka/data'];
    doc.services.kafka.environment.CLUSTER_ID = 'my-cluster';
    const problems = problemsOf(doc);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/volume "kafka-logs" is not declared/), expect.stringMatching(/CLUSTER_ID "my-cluster" is not a base64 UUID/)]));
  });

  it('reject an unset required variable, and a variable without a default', () => {
    expect(problemsOf(compose(), {})).toEqual(expect.arrayContaining([expect.stringMatching(/required variable not set while checking: GITHUB_WEBHOOK_SECRETS/)]));
    const doc = compose();
    doc.services.reader.environment.LOG_LEVEL = '${LOG_LEVEL}';
    expect(problemsOf(doc)).toEqual(expect.arrayContaining([expect.stringMatching(/\$\{LOG_LEVEL\} has no default/)]));
  });

  it('interpolate like Compose', () => {
    const doc = compose();
    doc.services.reader.environment.LOG_LEVEL = '${LOG_LEVEL:-debug}';
    doc.services.reader.environment.GITDEX_ALLOWED_ORIGINS = '$${literal}';
    expect(problemsOf(doc, { GITHUB_WEBHOOK_SECRETS: 'x', LOG_LEVEL: 'warn' })).toEqual([]);
  });

  it('reject duplicate keys and YAML syntax errors', () => {
    const duplicated = text.replace('      GITDEX_ROLE: reader\n', '      GITDEX_ROLE: reader\n      GITDEX_ROLE: all\n');
    expect(duplicated).not.toBe(text);
    expect(validateComposeText(duplicated, { facts }).problems).toEqual([expect.stringMatching(/YAML: .*[Mm]ap keys must be unique/)]);
    expect(validateComposeText('services:\n  a: [\n', { facts }).problems[0]).toMatch(/^YAML: /);
  });
});

describe('engines on the host (issue 17 item 7)', () => {
  it('reject Kafka or Elasticsearch publishing a host port in docker-compose.yml', () => {
    const doc = compose();
    expect(doc.services.kafka.ports).toBeUndefined();
    expect(doc.services.elasticsearch.ports).toBeUndefined();
    doc.services.kafka.ports = ['127.0.0.1:9094:9094'];
    doc.services.elasticsearch.ports = ['9200:9200'];
    const problems = problemsOf(doc);
    expect(problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/service kafka: publishes 127\.0\.0\.1:9094:9094 on the host/), expect.stringMatching(/service elasticsearch: publishes 9200:9200 on the host/)]),
    );
  });

  it('allow them in a profile (not started by default)', () => {
    const doc = compose();
    doc.services.elasticsearch.ports = ['127.0.0.1:9200:9200'];
    doc.services.elasticsearch.profiles = ['debug'];
    expect(problemsOf(doc).filter((p) => /on the host/.test(p))).toEqual([]);
  });

  it('the override example publishes them on loopback only, and docs say how to turn on security', () => {
    const example = parseYamlDocuments(readFileSync(join(root, 'docker-compose.override.example.yml'), 'utf8'));
    expect(example.errors).toEqual([]);
    const services = example.values[0].services;
    expect(Object.keys(services).sort()).toEqual(['elasticsearch', 'kafka']);
    for (const service of Object.values<any>(services)) {
      for (const port of service.ports) expect(String(port)).toMatch(/^127\.0\.0\.1:/);
    }
    const deploy = readFileSync(join(root, 'docs', 'deploy.md'), 'utf8');
    expect(deploy).toMatch(/xpack\.security\.enabled/);
    expect(deploy).toMatch(/docker-compose\.override\.example\.yml/);
    expect(text).toMatch(/xpack\.security\.enabled/);
  });
});
