// The environment every gitdex role process gets when the tests and benchmarks run the product
// as child processes against the GitHub stand-in: one place, so the fault suite, the cluster
// suite and the scaling benchmark start the roles the same way.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const FAULT_SECRET = 'fault-suite-secret';

export interface RoleEnvironmentOptions {
  /** Folder whose `.data/<name>` becomes the role's GITDEX_DATA_DIR. */
  root: string;
  /** The process name ("indexer-2"): client id and data folder. */
  name: string;
  kafkaBrokers: string;
  elasticsearchUrl: string;
  indexPrefix: string;
  githubApiUrl: string;
  /** Extra variables, applied last (e.g. KAFKA_TOPIC, KAFKA_GROUP_ID). */
  env?: Record<string, string>;
}

export function roleEnvironment(o: RoleEnvironmentOptions): Record<string, string> {
  const dataDir = join(o.root, '.data', o.name);
  mkdirSync(dataDir, { recursive: true });
  return {
    KAFKA_BROKERS: o.kafkaBrokers,
    KAFKA_CLIENT_ID: `gitdex-${o.name}`,
    ELASTICSEARCH_URL: o.elasticsearchUrl,
    ELASTICSEARCH_INDEX_PREFIX: o.indexPrefix,
    GITHUB_API_URL: o.githubApiUrl,
    GITHUB_WEB_URL: 'https://github.example.test',
    GITHUB_WEBHOOK_SECRETS: FAULT_SECRET,
    GITDEX_DATA_DIR: dataDir,
    ...o.env,
  };
}
