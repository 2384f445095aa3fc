import { Client } from '@elastic/elasticsearch';
import { PortError } from '@gitdex/ports';

export interface ElasticsearchIndexStoreOptions {
  /**
   * Elasticsearch URL, e.g. http://127.0.0.1:9200 (credentials may be inline), or a comma-separated
   * list of a cluster's nodes: the client spreads requests over them and retries on another node
   * when one fails. Required.
   */
  node: string;
  /** Names every index, alias and template: `${prefix}-files`, `${prefix}-repos`. Lower case. Default 'gitdex'. */
  indexPrefix?: string;
  /** A ready client (tests, custom transports); otherwise one is built from `node`. */
  client?: Client;
  /**
   * Per-request deadline. 10 s: well below the indexer's Kafka session timeout and long
   * enough for a 5 MB bulk on a busy node; an unreachable node fails after this, never hangs.
   */
  requestTimeoutMs?: number;
  /** Deadline of one bulk write (see BulkContext.bulkTimeoutMs). Default 60 s. */
  bulkTimeoutMs?: number;
  /** Replicas of each shard of the indices this store creates; default: auto_expand_replicas 0-1 (see mappings.ts). */
  replicas?: number | undefined;
  /** Client-level retries on connection errors and 502/503/504 (kept small: callers retry with backoff). */
  maxRetries?: number;
  /** Bulk batching: a batch closes at this many operations or bytes, whichever comes first. */
  bulkMaxOperations?: number;
  bulkMaxBytes?: number;
  /** How often items rejected with 429/5xx are re-sent, with exponential backoff from bulkBackoffMs. */
  bulkRetries?: number;
  bulkBackoffMs?: number;
  /** Credentials of their own (instead of inside the URL): an API key (the base64 "id:key" form) or a user and password. */
  auth?: ElasticsearchAuth | undefined;
  /**
   * A search plan that selects at most this many of a repository's blobs is joined to the entries
   * by sha; one that selects more walks the visible entries (content-search.ts). Default 4,096.
   */
  searchShaJoinLimit?: number | undefined;
  /** Told the blob migration's progress (entries moved, done), e.g. to log it; see ElasticsearchIndexStore.migrateBlobs. */
  onMigrationProgress?: (status: { done: boolean; migrated: number; movedNow: number; passes: number }) => void | Promise<void>;
  /** PEM text of the CA that signed the nodes' certificates (https URLs); absent: the system's trusted CAs. */
  caPem?: string | undefined;
}

export type ElasticsearchAuth = { apiKey: string } | { username: string; password: string };

export interface ResolvedOptions {
  /** Every node of the list. */
  nodes: string[];
  /** The nodes without credentials, for messages. */
  nodeLabel: string;
  replicas: number | undefined;
  indexPrefix: string;
  requestTimeoutMs: number;
  bulkTimeoutMs: number;
  maxRetries: number;
  bulkMaxOperations: number;
  bulkMaxBytes: number;
  bulkRetries: number;
  bulkBackoffMs: number;
  auth: ElasticsearchAuth | undefined;
  caPem: string | undefined;
}

const DEFAULTS = {
  indexPrefix: 'gitdex',
  requestTimeoutMs: 10_000,
  bulkTimeoutMs: 60_000,
  maxRetries: 1,
  bulkMaxOperations: 500,
  bulkMaxBytes: 5 * 1024 * 1024,
  bulkRetries: 4,
  bulkBackoffMs: 200,
} as const;

/** Index names must be lower case and may not start with -, _ or +. */
const PREFIX = /^[a-z0-9][a-z0-9._-]*$/;

function labelOf(node: string): string {
  try {
    const url = new URL(node);
    return `${url.protocol}//${url.host}`;
  } catch {
    return node;
  }
}

/** Validates options and fills defaults; throws PortError('INVALID') on a missing node or a bad prefix. */
export function resolveOptions(options: ElasticsearchIndexStoreOptions): ResolvedOptions {
  if (!options || typeof options.node !== 'string' || options.node.trim() === '') {
    throw new PortError('INVALID', 'ElasticsearchIndexStore needs options.node (the Elasticsearch URL)');
  }
  const indexPrefix = options.indexPrefix ?? DEFAULTS.indexPrefix;
  if (!PREFIX.test(indexPrefix)) {
    throw new PortError('INVALID', `indexPrefix "${indexPrefix}" must be lower case letters, digits, '.', '_' or '-'`);
  }
  const nodes = options.node
    .split(',')
    .map((node) => node.trim())
    .filter(Boolean);
  if (nodes.length === 0) throw new PortError('INVALID', 'ElasticsearchIndexStore needs options.node (the Elasticsearch URL)');
  if (options.replicas !== undefined && (!Number.isInteger(options.replicas) || options.replicas < 0)) {
    throw new PortError('INVALID', `replicas must be a whole number of 0 or more, not ${options.replicas}`);
  }
  return {
    nodes,
    nodeLabel: nodes.map(labelOf).join(','),
    replicas: options.replicas,
    indexPrefix,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    bulkTimeoutMs: options.bulkTimeoutMs ?? DEFAULTS.bulkTimeoutMs,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    bulkMaxOperations: options.bulkMaxOperations ?? DEFAULTS.bulkMaxOperations,
    bulkMaxBytes: options.bulkMaxBytes ?? DEFAULTS.bulkMaxBytes,
    bulkRetries: options.bulkRetries ?? DEFAULTS.bulkRetries,
    bulkBackoffMs: options.bulkBackoffMs ?? DEFAULTS.bulkBackoffMs,
    auth: options.auth,
    caPem: options.caPem,
  };
}

export function createClient(options: ResolvedOptions): Client {
  return new Client({
    // With several nodes the connection pool round-robins and marks a failing node dead for a while;
    // maxRetries lets a request that met a dead node be retried on the next one.
    nodes: options.nodes,
    requestTimeout: options.requestTimeoutMs,
    maxRetries: options.maxRetries,
    sniffOnStart: false,
    sniffOnConnectionFault: false,
    ...(options.auth ? { auth: options.auth } : {}),
    // Verification stays on: a node whose certificate the CA did not sign is refused.
    ...(options.caPem ? { tls: { ca: options.caPem, rejectUnauthorized: true } } : {}),
  });
}
