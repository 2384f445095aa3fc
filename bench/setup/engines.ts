import { loadEnginesLib, type EngineName } from '../../test/harness/engines';

export interface Engines {
  kafkaBrokers: string;
  elasticsearchUrl: string;
  /** Where they came from: the environment, already running, or started by this run. */
  provenance: string;
  /** Stops what this run started, and nothing else. */
  release(): Promise<void>;
}

/**
 * Kafka and Elasticsearch as the tests get them: KAFKA_BROKERS / ELASTICSEARCH_URL when
 * both are set, else scripts/engines up (reusing running engines).
 */
export async function acquireEngines(log: (line: string) => void): Promise<Engines> {
  const { KAFKA_BROKERS, ELASTICSEARCH_URL } = process.env;
  if (KAFKA_BROKERS && ELASTICSEARCH_URL) {
    return { kafkaBrokers: KAFKA_BROKERS, elasticsearchUrl: ELASTICSEARCH_URL, provenance: 'from KAFKA_BROKERS / ELASTICSEARCH_URL', release: () => Promise.resolve() };
  }
  const lib = await loadEnginesLib();
  const result = await lib.up({ log: (line) => log(`[engines] ${line}`) });
  if (!result.kafkaBrokers || !result.elasticsearchUrl) throw new Error('scripts/engines up gave no endpoints');
  const started = (Object.keys(result.started) as EngineName[]).filter((name) => result.started[name]);
  return {
    kafkaBrokers: result.kafkaBrokers,
    elasticsearchUrl: result.elasticsearchUrl,
    provenance: started.length > 0 ? `started by this run (${started.join(', ')}), local JVMs` : 'already running (scripts/engines), reused',
    async release() {
      for (const name of started) await lib.stopEngine(name, { log: (line) => log(`[engines] ${line}`) });
    },
  };
}
