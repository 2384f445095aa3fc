// Conformance cases of the SignInStore port, run against every adapter on its real engine:
// expiry by the caller's clock, one winner of a take raced by several replicas, listing that
// leaves out expired records, and a sweep that removes only what expired.
import type { SignInStore } from '@gitdex/ports';

export function signInStoreCases(name: string, open: () => SignInStore[]): void {
  describe(`SignInStore conformance: ${name}`, () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const later = (ms: number) => new Date(t0.getTime() + ms);
    let replicas: SignInStore[];
    beforeAll(() => {
      replicas = open();
    });

    it('a record written by one replica reads at once on another, and reads as absent once expired', async () => {
      const [a, b] = replicas as [SignInStore, SignInStore];
      await a.put('grant', 'g1', { login: 'alice', revoked: false }, later(60_000));
      expect(await b.get('grant', 'g1', later(1))).toEqual({ login: 'alice', revoked: false });
      await b.put('grant', 'g1', { login: 'alice', revoked: true }, later(60_000));
      expect(await a.get('grant', 'g1', later(2))).toEqual({ login: 'alice', revoked: true });
      expect(await a.get('grant', 'g1', later(60_000))).toBeNull();
      expect(await a.get('client', 'g1', later(1))).toBeNull();
    });

    it('of replicas taking one code at the same moment exactly one gets it; an expired one is given to nobody', async () => {
      await replicas[0]!.put('code', 'c1', { grantId: 'g1' }, later(60_000));
      const taken = await Promise.all(replicas.flatMap((store) => [store.take('code', 'c1', later(5)), store.take('code', 'c1', later(5))]));
      expect(taken.filter((value) => value !== null)).toEqual([{ grantId: 'g1' }]);
      await replicas[0]!.put('code', 'c2', { grantId: 'g2' }, later(1_000));
      expect(await replicas[1]!.take('code', 'c2', later(1_000))).toBeNull();
      expect(await replicas[0]!.get('code', 'c2', t0)).toBeNull();
    });

    it('lists the live records of one kind, and a sweep removes only the expired ones', async () => {
      const [a, b] = replicas as [SignInStore, SignInStore];
      await a.put('client', 'k-forever', { name: 'inspector' }, null);
      await a.put('client', 'k-short', { name: 'cursor' }, later(10_000));
      await b.put('access', 'k-other-kind', { name: 'x' }, null);
      expect(await b.list('client', later(1), 10)).toEqual([
        { key: 'k-forever', value: { name: 'inspector' } },
        { key: 'k-short', value: { name: 'cursor' } },
      ]);
      expect(await b.list('client', later(10_000), 10)).toEqual([{ key: 'k-forever', value: { name: 'inspector' } }]);
      expect(await a.sweep(later(10_000))).toBeGreaterThanOrEqual(1);
      expect(await a.get('client', 'k-short', t0)).toBeNull();
      expect(await a.get('client', 'k-forever', later(10 ** 9))).toEqual({ name: 'inspector' });
      await a.delete('client', 'k-forever');
      expect(await b.get('client', 'k-forever', t0)).toBeNull();
    });
  });
}
