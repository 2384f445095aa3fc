/**
 * A file's tier in every ranking: the project's source (0), its tests (1), vendored or
 * generated copies (2). The reader ranks search results and symbols by it, and an index that
 * orders symbol files (rankedSymbols) calls the same function, so the two never disagree.
 */

/** A folder named like a test folder, anywhere in the path, in any case. */
const TEST_PATH = /(^|\/)(tests?|__tests__|spec|specs|testdata|fixtures?|__mocks__)\//i;
/** A file named like a test, in its exact case (matched on the name alone). */
const TEST_NAME = /([._-](test|spec)s?\.[^./]+$)|(^test_[^/]*\.py$)|(_test\.go$)|(Tests?\.(java|kt|cs|swift)$)/;

export interface TierFlags {
  vendored: boolean;
  generated: boolean;
}

export function tierOf(path: string, flags: TierFlags): number {
  if (flags.vendored || flags.generated) return 2;
  const name = path.slice(path.lastIndexOf('/') + 1);
  return TEST_PATH.test(path) || TEST_NAME.test(name) ? 1 : 0;
}

/** How deep a definition is nested: the segments of its dotted container, 0 at the top. */
export function nestingOf(container: string | null): number {
  return container === null ? 0 : container.split('.').length;
}

/** The folders above a path: its "/" characters. */
export function foldersOf(path: string): number {
  let count = 0;
  for (const ch of path) if (ch === '/') count += 1;
  return count;
}
