/**
 * Range helpers over code point order (= UTF-8 byte order = SQLite BINARY collation).
 */

/** The smallest string greater than every string that starts with `prefix`, or undefined if none exists. */
export function prefixSuccessor(prefix: string): string | undefined {
  const points = [...prefix].map((char) => char.codePointAt(0) as number);
  while (points.length > 0) {
    const last = points.pop() as number;
    if (last < 0x10ffff) {
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return String.fromCodePoint(...points, next);
    }
  }
  return undefined;
}

/** Bounds [lo, hi) of every path strictly below folder F ('' is the root and has no bounds). */
export function folderRange(folder: string): { lo: string; hi: string } {
  // '/' is U+002F and '0' is U+0030: everything that starts with "F/" sorts in ["F/", "F0").
  return { lo: `${folder}/`, hi: `${folder}0` };
}
