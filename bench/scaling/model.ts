// The capacity model: per-push costs measured by the run (costs.ts) turned into a deployment's
// size for a push rate, and the index's size for a number of files. Every input is either a
// measured figure (named with where it came from) or an assumption stated with its value.
import type { CostRow } from './costs';
import type { IndexSize } from './es-stats';

export interface Assumptions {
  /** Pushes a second to size for. */
  pushesPerSecond: number;
  repositories: number;
  /** Files a typical push changes. */
  filesPerPush: number;
  /** Share of a core the sizing plans to use (headroom for bursts and rebalances). */
  targetUtilisation: number;
  /** Files the search covers, and their average size (bytes). */
  filesSearched: number;
  averageFileBytes: number;
  kafkaReplicationFactor: number;
  kafkaRetentionDays: number;
  elasticsearchReplicas: number;
}

export const DEFAULT_ASSUMPTIONS: Assumptions = {
  pushesPerSecond: 50,
  repositories: 10_000,
  filesPerPush: 3,
  targetUtilisation: 0.7,
  filesSearched: 1_000_000,
  // The bench's large real repository: 51,615 files, 602.8 MB (docs/journal/2026-11-30-full-run.md).
  averageFileBytes: Math.round(602.8e6 / 51_615),
  kafkaReplicationFactor: 3,
  kafkaRetentionDays: 7,
  elasticsearchReplicas: 1,
};

/** cost(files) = fixed + perFile × files, least squares over the measured rows. */
export interface LinearFit {
  fixed: number;
  perFile: number;
}

export function fit(points: { files: number; value: number }[]): LinearFit {
  const n = points.length;
  if (n === 0) return { fixed: 0, perFile: 0 };
  if (n === 1) return { fixed: points[0]!.value, perFile: 0 };
  const mx = points.reduce((s, p) => s + p.files, 0) / n;
  const my = points.reduce((s, p) => s + p.value, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.files - mx) ** 2, 0);
  const sxy = points.reduce((s, p) => s + (p.files - mx) * (p.value - my), 0);
  const perFile = sxx === 0 ? 0 : sxy / sxx;
  return { fixed: my - perFile * mx, perFile };
}

const at = (f: LinearFit, files: number) => f.fixed + f.perFile * files;

/** The stand-in's request-log key of GitHub's GraphQL endpoint. */
export const GRAPHQL_ROUTE = 'POST /graphql';

export interface Capacity {
  assumptions: Assumptions;
  fits: Record<'indexerCpu' | 'webhookCpu' | 'elasticsearchCpu' | 'kafkaCpu' | 'githubRequests' | 'githubGraphql' | 'esDocs' | 'esBulkBytes', LinearFit | null>;
  kafkaBytesPerEvent: number | null;
  /** At the assumed rate and files per push. */
  indexerCores: number;
  webhookCores: number;
  elasticsearchCores: number | null;
  kafkaCores: number | null;
  indexerProcesses: number;
  githubRequestsPerHour: number;
  /**
   * Of those, GraphQL queries: GitHub counts them against a budget of their own (points; every
   * query gitdex sends costs GitHub's minimum, one point), so the REST requests and the GraphQL
   * points are two budgets and the busier one sizes the installations.
   */
  githubGraphqlPointsPerHour: number;
  githubCoreRequestsPerHour: number;
  /** Installations needed at GitHub's 5,000 (15,000 on Enterprise Cloud) requests an hour each, by the busier budget. */
  githubInstallationsAt5000: number;
  githubInstallationsAt15000: number;
  esDocsPerSecond: number;
  esBulkMBPerSecond: number | null;
  kafkaMBPerSecond: number | null;
  kafkaRetainedGB: number | null;
  /** Index size for `filesSearched` files. */
  storeBytesPerContentByte: number | null;
  indexGB: number | null;
  indexGBAllCopies: number | null;
}

/**
 * `filesIndex` and `contentBytes`: the files index's primary store after the first index and the
 * bytes of the files it then held (one version each); their ratio (per-document overhead
 * folded in) scales the index to `filesSearched` files of `averageFileBytes`.
 */
export function capacity(rows: CostRow[], kafkaBytesPerEvent: number | null, filesIndex: IndexSize | undefined, contentBytes: number, a: Assumptions = DEFAULT_ASSUMPTIONS): Capacity {
  const line = (value: (r: CostRow) => number | null): LinearFit | null => {
    const points = rows.map((r) => ({ files: r.files, value: value(r) })).filter((p): p is { files: number; value: number } => p.value !== null);
    return points.length ? fit(points) : null;
  };
  const fits = {
    indexerCpu: line((r) => r.indexerCpuPerPush),
    webhookCpu: line((r) => r.webhookCpuPerPush),
    elasticsearchCpu: line((r) => r.elasticsearchCpuPerPush),
    kafkaCpu: line((r) => r.kafkaCpuPerPush),
    githubRequests: line((r) => r.githubRequestsPerPush),
    githubGraphql: line((r) => r.routesPerPush[GRAPHQL_ROUTE] ?? 0),
    esDocs: line((r) => r.esDocsPerPushAllCopies),
    esBulkBytes: line((r) => r.esBulkBytesPerPushAllCopies),
  };
  const rate = a.pushesPerSecond;
  const f = a.filesPerPush;
  const cores = (fitted: LinearFit | null) => (fitted ? (rate * at(fitted, f)) / a.targetUtilisation : null);
  const indexerCores = cores(fits.indexerCpu) ?? 0;
  const requestsPerHour = fits.githubRequests ? rate * 3600 * at(fits.githubRequests, f) : 0;
  const graphqlPerHour = fits.githubGraphql ? rate * 3600 * at(fits.githubGraphql, f) : 0;
  const busiestBudget = Math.max(graphqlPerHour, requestsPerHour - graphqlPerHour);
  const storeRatio = filesIndex && contentBytes > 0 ? filesIndex.primaryStoreBytes / contentBytes : null;
  const indexBytes = storeRatio === null ? null : a.filesSearched * a.averageFileBytes * storeRatio;
  return {
    assumptions: a,
    fits,
    kafkaBytesPerEvent,
    indexerCores,
    webhookCores: cores(fits.webhookCpu) ?? 0,
    elasticsearchCores: cores(fits.elasticsearchCpu),
    kafkaCores: cores(fits.kafkaCpu),
    // One indexer process works on at most four partitions at once and uses about one core.
    indexerProcesses: Math.max(1, Math.ceil(indexerCores)),
    githubRequestsPerHour: requestsPerHour,
    githubGraphqlPointsPerHour: graphqlPerHour,
    githubCoreRequestsPerHour: requestsPerHour - graphqlPerHour,
    githubInstallationsAt5000: Math.ceil(busiestBudget / 5000),
    githubInstallationsAt15000: Math.ceil(busiestBudget / 15000),
    esDocsPerSecond: fits.esDocs ? rate * at(fits.esDocs, f) : 0,
    esBulkMBPerSecond: fits.esBulkBytes ? (rate * at(fits.esBulkBytes, f)) / 1e6 : null,
    kafkaMBPerSecond: kafkaBytesPerEvent === null ? null : (rate * kafkaBytesPerEvent * a.kafkaReplicationFactor) / 1e6,
    kafkaRetainedGB: kafkaBytesPerEvent === null ? null : (rate * 86_400 * a.kafkaRetentionDays * kafkaBytesPerEvent * a.kafkaReplicationFactor) / 1e9,
    storeBytesPerContentByte: storeRatio,
    indexGB: indexBytes === null ? null : indexBytes / 1e9,
    indexGBAllCopies: indexBytes === null ? null : (indexBytes * (1 + a.elasticsearchReplicas)) / 1e9,
  };
}

/** The reconciler's side of the model (services/indexer/src/reconcile-budget.ts applies it at run time). */
export interface ReconcilerAssumptions {
  repositories: number;
  /** Indexed refs a repository (branch heads the reconciler re-reads). */
  refsPerRepository: number;
  /** Pushes a second across the repositories: a ref pushed since the last pass answers 200, not 304. */
  pushesPerSecond: number;
  /** GITDEX_RECONCILE_BUDGET_SHARE and GitHub's hourly limit (all installations counted as one budget). */
  budgetShare: number;
  limitPerHour: number;
  /** GITDEX_RECONCILE_INTERVAL_SECONDS: the shortest interval. */
  minimumIntervalSeconds: number;
}

export const DEFAULT_RECONCILER_ASSUMPTIONS: ReconcilerAssumptions = {
  repositories: 300,
  refsPerRepository: 1,
  pushesPerSecond: 0.01,
  budgetShare: 0.1,
  limitPerHour: 5000,
  minimumIntervalSeconds: 300,
};

export interface ReconcilerLoad {
  /** Repository list pages a pass (100 repositories a page). */
  listPagesPerPass: number;
  /** Heads a pass re-reads, and of those answered 304 (free) once the ETags are known. */
  headsPerPass: number;
  notModifiedPerPass: number;
  /** Requests a pass that GitHub counts, in the steady state. */
  countedPerPass: number;
  /** A first pass (after a start or a takeover: no ETags yet): every request counts. */
  firstPassCounted: number;
  intervalSeconds: number;
  /** Counted requests an hour: at most budgetShare × limitPerHour, whatever the fleet. */
  requestsPerHour: number;
}

/**
 * One process reconciles (the lease); a pass costs its list pages plus the heads that changed
 * since the last one (the others are 304s), and the next pass waits until passes like it stay
 * within the budget share. The interval is found by iterating: a longer interval lets more
 * refs change, which makes the pass dearer.
 */
export function reconcilerLoad(a: ReconcilerAssumptions = DEFAULT_RECONCILER_ASSUMPTIONS): ReconcilerLoad {
  const listPagesPerPass = Math.max(1, Math.ceil(a.repositories / 100));
  const headsPerPass = a.repositories * a.refsPerRepository;
  const perHour = a.budgetShare * a.limitPerHour;
  let interval = a.minimumIntervalSeconds;
  let changed = 0;
  for (let i = 0; i < 50; i += 1) {
    changed = Math.min(headsPerPass, a.pushesPerSecond * interval);
    const next = Math.max(a.minimumIntervalSeconds, Math.ceil(((listPagesPerPass + changed) / perHour) * 3600));
    if (next === interval) break;
    interval = next;
  }
  const countedPerPass = listPagesPerPass + changed;
  return {
    listPagesPerPass,
    headsPerPass,
    notModifiedPerPass: headsPerPass - changed,
    countedPerPass,
    firstPassCounted: listPagesPerPass + headsPerPass,
    intervalSeconds: interval,
    requestsPerHour: (countedPerPass * 3600) / interval,
  };
}
