// The deployment files of the repository pass every check of scripts/validate-deploy (the
// same as `node scripts/validate-deploy.mjs`, which CI runs too): Dockerfile, compose file,
// Kubernetes manifests (rendered with kubectl kustomize where kubectl is installed), Kafka
// topics and Elasticsearch templates.
import { join } from 'node:path';
import { loadFacts, validateDeploy, type Facts } from '../../scripts/validate-deploy/index.js';

const root = join(__dirname, '..', '..');
let facts: Facts;

beforeAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loadFacts takes a synchronous loader: jest's require compiles the TypeScript module
  facts = await loadFacts(root, (rel) => require(join(root, rel)));
}, 60_000);

describe('deployment files of the repository', () => {
  it('read their facts from the code', () => {
    expect(facts.envNames.has('KAFKA_BROKERS')).toBe(true);
    expect(facts.envNames.has('GITDEX_ROLE')).toBe(true);
    expect(facts.roles).toEqual(expect.arrayContaining(['webhook', 'indexer', 'reader']));
    expect(facts.metricNames.has(facts.lagMetric)).toBe(true);
    expect(Object.keys(facts.elasticsearchTemplates).length).toBeGreaterThanOrEqual(2);
  });

  it('pass every check', () => {
    const sections = validateDeploy({ root, facts });
    expect(sections.map((s) => s.name)).toEqual(
      expect.arrayContaining(['Dockerfile', '.dockerignore', 'docker-compose.yml', 'Kubernetes (deploy/kubernetes)', 'Kafka topics (deploy/kafka)', 'Elasticsearch templates (deploy/elasticsearch)']),
    );
    const failures = sections.filter((s) => s.problems.length > 0).map((s) => `${s.name}:\n  ${s.problems.join('\n  ')}`);
    expect(failures).toEqual([]);
  }, 120_000);
});
