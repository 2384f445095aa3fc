// The reconciler lease on Elasticsearch: of processes asking at once exactly one wins, the
// holder renews, and another takes over once a crashed holder's lease expires (the clock is
// the caller's, so nothing waits).
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchLeases } from '@gitdex/elasticsearch';
import { engineEndpoints, uniqueName } from '../harness/engines';

describe('reconciler lease on Elasticsearch', () => {
  const client = new Client({ node: engineEndpoints().elasticsearchUrl });
  const prefix = uniqueName('lease').replace(/-/g, '');
  afterAll(async () => {
    await client.indices.delete({ index: `${prefix}-leases` }, { ignore: [404] });
    await client.close();
  });

  it('one of four processes asking at once wins; a crashed holder is taken over after its expiry', async () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const processes = ['a', 'b', 'c', 'd'].map((name) => ({ name, leases: new ElasticsearchLeases(client, { indexPrefix: prefix }) }));
    const won = await Promise.all(processes.map((p) => p.leases.acquireLease('reconciler', p.name, 60_000, t0)));
    expect(won.filter(Boolean)).toHaveLength(1);
    const holder = processes[won.indexOf(true)]!;
    const other = processes.find((p) => p !== holder)!;
    expect(await other.leases.readLease('reconciler')).toEqual({ name: 'reconciler', holder: holder.name, expiresAt: '2026-01-01T00:01:00.000Z' });

    // The holder renews; the others are refused while it lives.
    expect(await holder.leases.acquireLease('reconciler', holder.name, 60_000, new Date(t0.getTime() + 20_000))).toBe(true);
    expect(await other.leases.acquireLease('reconciler', other.name, 60_000, new Date(t0.getTime() + 70_000))).toBe(false);
    // It crashed: 60 s after its last renewal another process takes over, and the old holder cannot renew.
    expect(await other.leases.acquireLease('reconciler', other.name, 60_000, new Date(t0.getTime() + 80_001))).toBe(true);
    expect(await holder.leases.acquireLease('reconciler', holder.name, 60_000, new Date(t0.getTime() + 80_002))).toBe(false);
    // Giving it up frees it at once, and only its holder can.
    await holder.leases.releaseLease('reconciler', holder.name);
    expect((await other.leases.readLease('reconciler'))?.holder).toBe(other.name);
    await other.leases.releaseLease('reconciler', other.name);
    expect(await holder.leases.readLease('reconciler')).toBeNull();
  });
});
