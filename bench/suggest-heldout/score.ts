import type { HeldOutCase } from './rules';

/** Top-1 and top-5 over all cases, and apart on cases with one right answer and with several. */
export interface Accuracy {
  all: { n: number; top1: number; top5: number };
  oneAnswer: { n: number; top1: number; top5: number };
  ambiguous: { n: number; top1: number; top5: number };
  /** Top-1 % per kind over all its cases. */
  byKind: Record<string, number>;
  misses: { c: HeldOutCase; got: string[] }[];
}

const pct = (hits: number, n: number) => (n === 0 ? Number.NaN : (100 * hits) / n);

/** A hit is any of the case's answers: its one path, or any path the query fits equally. */
export async function accuracy(cases: readonly HeldOutCase[], top: (query: string) => string[] | Promise<string[]>): Promise<Accuracy> {
  const tally: Record<'all' | 'one' | 'amb', [number, number, number]> = { all: [0, 0, 0], one: [0, 0, 0], amb: [0, 0, 0] };
  const kinds = new Map<string, [number, number]>();
  const misses: Accuracy['misses'] = [];
  for (const c of cases) {
    const got = await top(c.query);
    const hit1 = got.length > 0 && c.answers.includes(got[0]!);
    const hit5 = got.slice(0, 5).some((p) => c.answers.includes(p));
    for (const t of [tally.all, c.answers.length === 1 ? tally.one : tally.amb]) {
      t[0] += 1;
      t[1] += hit1 ? 1 : 0;
      t[2] += hit5 ? 1 : 0;
    }
    const k = kinds.get(c.kind) ?? [0, 0];
    kinds.set(c.kind, [k[0] + 1, k[1] + (hit1 ? 1 : 0)]);
    if (!hit1) misses.push({ c, got });
  }
  const part = ([n, t1, t5]: [number, number, number]) => ({ n, top1: pct(t1, n), top5: pct(t5, n) });
  return { all: part(tally.all), oneAnswer: part(tally.one), ambiguous: part(tally.amb), byKind: Object.fromEntries([...kinds].map(([k, [n, h]]) => [k, pct(h, n)])), misses };
}
