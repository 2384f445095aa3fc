/**
 * `compute` run once per object and kept with it: the read cache hands out the same
 * document and listing objects until it drops them, so what is worked out of one is
 * worked out once, and forgotten with it.
 */
export function perObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const kept = new WeakMap<K, V>();
  return (key) => {
    if (kept.has(key)) return kept.get(key) as V;
    const value = compute(key);
    kept.set(key, value);
    return value;
  };
}
