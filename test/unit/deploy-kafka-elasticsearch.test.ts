// deploy/kafka and deploy/elasticsearch agree with the code: topic names and partitions, and
// index templates equal to what ensureReady puts (captured from the real setup code).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFacts, readManifests, validateElasticsearchTemplates, validateKafkaTopics, writeElasticsearchTemplates, type Facts } from '../../scripts/validate-deploy/index.js';

const root = join(__dirname, '..', '..');
let facts: Facts;

beforeAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loadFacts takes a synchronous loader: jest's require compiles the TypeScript module
  facts = await loadFacts(root, (rel) => require(join(root, rel)));
}, 60_000);

const topics = () => structuredClone(readManifests(join(root, 'deploy', 'kafka', 'topics.yaml')).objects);

describe('Kafka topic definitions', () => {
  it('accept deploy/kafka/topics.yaml', () => {
    expect(validateKafkaTopics(topics(), facts)).toEqual([]);
  });

  it('reject partitions that differ from gitdex, a missing topic and an unknown field', () => {
    const [push, dlq] = topics();
    push.spec.partitions = 6;
    dlq.spec.replica = 3;
    const problems = validateKafkaTopics([push, dlq], facts);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/gitdex.push.v1: 6 partitions, gitdex's KAFKA_PARTITIONS default is 12/),
        expect.stringMatching(/unknown field "replica"/),
        expect.stringMatching(/no KafkaTopic for gitdex.push.v1.dlq/),
      ]),
    );
    expect(validateKafkaTopics([push], facts)).toEqual(expect.arrayContaining([expect.stringMatching(/no KafkaTopic for gitdex.push.v1.dlq/)]));
  });

  it('reject min.insync.replicas that stops writes', () => {
    const [push, dlq] = topics();
    push.spec.config['min.insync.replicas'] = 4;
    expect(validateKafkaTopics([push, dlq], facts)).toEqual([expect.stringMatching(/min.insync.replicas 4 is above replicas 3/)]);
  });
});

describe('Elasticsearch index templates', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gitdex-es-templates-'));
    cpSync(join(root, 'deploy', 'elasticsearch'), dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('equal what gitdex puts on start', () => {
    expect(validateElasticsearchTemplates(join(root, 'deploy', 'elasticsearch'), facts)).toEqual([]);
    const files = Object.keys(facts.elasticsearchTemplates);
    expect(files).toEqual(expect.arrayContaining(['gitdex-files-v7', 'gitdex-repos-v1']));
    const files1 = JSON.parse(readFileSync(join(root, 'deploy', 'elasticsearch', 'gitdex-files-v7.json'), 'utf8'));
    expect(files1.template.mappings.dynamic).toBe('strict');
    expect(files1.index_patterns).toContain('gitdex-files-v7');
  });

  it('reject a template that drifted from the code, a missing one and a stale one', () => {
    const file = join(dir, 'gitdex-files-v7.json');
    const template = JSON.parse(readFileSync(file, 'utf8'));
    template.template.settings.number_of_shards = 3;
    writeFileSync(file, JSON.stringify(template));
    rmSync(join(dir, 'gitdex-repos-v1.json'));
    writeFileSync(join(dir, 'gitdex-files-v0.json'), '{}');
    expect(validateElasticsearchTemplates(dir, facts)).toEqual([
      expect.stringMatching(/gitdex-files-v7.json differs from what gitdex puts/),
      expect.stringMatching(/gitdex-repos-v1.json is missing/),
      expect.stringMatching(/gitdex-files-v0.json: gitdex creates no such template/),
    ]);
    writeElasticsearchTemplates(dir, facts);
    expect(validateElasticsearchTemplates(dir, facts)).toEqual([]);
  });
});
