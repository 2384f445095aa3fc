// The scaling benchmark's capacity model (bench/scaling/model.ts) and its /proc readers: the
// sizing in docs/scaling.md is computed by these, so a wrong fit or unit shows here.
import { busyShare, machineCpu, processCpuSeconds, selfCpuSeconds } from '../../bench/scaling/cpu';
import type { CostRow } from '../../bench/scaling/costs';
import { capacity, DEFAULT_ASSUMPTIONS, fit } from '../../bench/scaling/model';

function row(files: number, indexerCpu: number, requests: number, docs: number, bulk: number): CostRow {
  return {
    files,
    pushes: 8,
    indexerCpuPerPush: indexerCpu,
    indexerIdleCpuRate: 0,
    webhookCpuPerPush: 0.02,
    readerCpuPerPush: 0,
    elasticsearchCpuPerPush: null,
    kafkaCpuPerPush: null,
    githubRequestsPerPush: requests,
    routesPerPush: {},
    esDocsPerPush: docs / 2,
    esDocsPerPushAllCopies: docs,
    esBulkBytesPerPush: bulk / 2,
    esBulkBytesPerPushAllCopies: bulk,
    kafkaBytesPerPush: 590,
    freshnessMedianMs: 1000,
    meter: {} as CostRow['meter'],
  };
}

describe('scaling capacity model', () => {
  it('fits cost = fixed + perFile × files by least squares', () => {
    expect(
      fit([
        { files: 1, value: 7 },
        { files: 10, value: 16 },
        { files: 100, value: 106 },
      ]),
    ).toEqual({ fixed: 6, perFile: 1 });
    expect(fit([{ files: 3, value: 2 }])).toEqual({ fixed: 2, perFile: 0 });
  });

  it('sizes indexer cores, GitHub requests, Kafka and the index from the per-push costs', () => {
    const rows = [row(1, 0.0625, 7, 8, 1000), row(10, 0.07, 16, 44, 10_000), row(100, 0.145, 106, 404, 100_000)];
    const c = capacity(rows, 590, { index: 'x-files-v2', docs: 10, primaryStoreBytes: 1330, storeBytes: 2660 }, 1000);
    expect(c.indexerCores).toBeCloseTo((50 * (c.fits.indexerCpu!.fixed + 3 * c.fits.indexerCpu!.perFile)) / 0.7, 6);
    expect(c.indexerProcesses).toBe(Math.ceil(c.indexerCores));
    expect(c.githubRequestsPerHour).toBeCloseTo(50 * 3600 * 9, 3);
    expect(c.githubInstallationsAt5000).toBe(324);
    expect(c.esDocsPerSecond).toBeCloseTo(50 * (4 + 4 * 3), 3);
    expect(c.kafkaMBPerSecond).toBeCloseTo((50 * 590 * 3) / 1e6, 9);
    expect(c.storeBytesPerContentByte).toBeCloseTo(1.33, 9);
    expect(c.indexGB).toBeCloseTo((1e6 * DEFAULT_ASSUMPTIONS.averageFileBytes * 1.33) / 1e9, 6);
    expect(c.indexGBAllCopies).toBeCloseTo(c.indexGB! * 2, 9);
    // Engine CPU not measured (a given cluster): no sizing for it rather than zero.
    expect(c.elasticsearchCores).toBeNull();
  });

  it('sizes installations by the busier of two GitHub budgets: REST requests and GraphQL points', () => {
    const twoRequests = (files: number) => ({ ...row(files, 0.06, 2, 8, 1000), routesPerPush: { 'GET /repos/:owner/:repo/compare/*basehead': 1, 'POST /graphql': 1 } });
    const c = capacity([twoRequests(1), twoRequests(10), twoRequests(100)], 590, undefined, 0);
    expect(c.githubRequestsPerHour).toBeCloseTo(50 * 3600 * 2, 3);
    expect(c.githubGraphqlPointsPerHour).toBeCloseTo(50 * 3600, 3);
    expect(c.githubInstallationsAt5000).toBe(36);
  });

  it('reads CPU time from /proc: this process uses some, the machine is busy part of the time', () => {
    const before = machineCpu();
    let x = 0;
    for (let i = 0; i < 2e7; i += 1) x += i % 7;
    expect(x).toBeGreaterThan(0);
    const after = machineCpu();
    expect(processCpuSeconds(process.pid)).toBeGreaterThan(0);
    expect(selfCpuSeconds()).toBeGreaterThanOrEqual(processCpuSeconds(process.pid));
    expect(processCpuSeconds(undefined)).toBe(0);
    const share = busyShare(before, after);
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThanOrEqual(1);
  });
});
