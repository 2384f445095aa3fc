import { createHash } from 'node:crypto';

/**
 * Names a held commit together with the part of the history held below it: a hash over the
 * commit and, in order, its parents' keys, a parent not held counting as absent. Blame at a
 * commit depends on exactly that, so the key never goes stale: two histories holding the same
 * commits below it share blames, and one held deeper or cut by a force push does not. The reader
 * keys its memo and the indexer its stored version blames by it, so both must compute it alike.
 *
 * `parentsOf` gives a held commit's parents (undefined when the commit is not held); `keys`
 * keeps the keys computed, across calls.
 */
export function heldKey(sha: string, parentsOf: (sha: string) => readonly string[] | undefined, keys: Map<string, string>): string {
  const stack = [sha];
  while (stack.length > 0) {
    const c = stack[stack.length - 1]!;
    if (keys.has(c)) {
      stack.pop();
      continue;
    }
    const parents = parentsOf(c) ?? [];
    const pending = parents.filter((p) => parentsOf(p) !== undefined && !keys.has(p));
    if (pending.length > 0) {
      stack.push(...pending);
      continue;
    }
    stack.pop();
    const hash = createHash('sha1').update(c);
    for (const p of parents) hash.update(`\u0000${keys.get(p) ?? '-'}`);
    keys.set(c, hash.digest('hex'));
  }
  return keys.get(sha)!;
}
