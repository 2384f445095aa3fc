/**
 * Which refs of a repository are indexed. Patterns are branch names with `*` globs, or
 * full-ref globs starting with `refs/` (`refs/tags/v*`, `refs/heads/release/*`); the word
 * `default` stands for the repository's default branch (the default setting).
 */
export class RefSelection {
  private readonly patterns: Glob[];
  /** Full-ref patterns, matched against the whole ref (tags among them). */
  private readonly refPatterns: Glob[];
  private readonly refGlobs: string[];
  private readonly includesDefault: boolean;

  constructor(patterns: readonly string[]) {
    this.includesDefault = patterns.includes('default');
    this.patterns = patterns.filter((p) => p !== 'default' && !p.startsWith('refs/')).map((p) => new Glob(p));
    this.refGlobs = patterns.filter((p) => p.startsWith('refs/'));
    this.refPatterns = this.refGlobs.map((p) => new Glob(p));
  }

  /** Whether patterns beyond the default branch need the repository's branch list. */
  get needsBranchList(): boolean {
    return this.patterns.length > 0 || this.refGlobs.some((p) => p.startsWith('refs/heads/'));
  }

  /** Whether tags are selected: their list is needed. */
  get needsTagList(): boolean {
    return this.refGlobs.some((p) => p.startsWith('refs/tags/'));
  }

  includes(ref: string, defaultBranch: string): boolean {
    if (this.refPatterns.some((p) => p.test(ref))) return true;
    const branch = branchOf(ref);
    if (branch === null) return false;
    return (this.includesDefault && branch === defaultBranch) || this.patterns.some((p) => p.test(branch));
  }

  /** The full refs to index, from the repository's branches and tags (or only its default branch). */
  select(defaultBranch: string, branches: readonly string[] = [], tags: readonly string[] = []): string[] {
    const refs = new Set<string>(this.includesDefault ? [`refs/heads/${defaultBranch}`] : []);
    for (const branch of branches) if (this.includes(`refs/heads/${branch}`, defaultBranch)) refs.add(`refs/heads/${branch}`);
    for (const tag of tags) if (this.includes(`refs/tags/${tag}`, defaultBranch)) refs.add(`refs/tags/${tag}`);
    return [...refs].sort();
  }
}

/** `refs/tags/x` → `x`; null for any other ref. */
export function tagOf(ref: string): string | null {
  return ref.startsWith('refs/tags/') ? ref.slice('refs/tags/'.length) : null;
}

/** `refs/heads/x` → `x`; other refs (tags, pull requests) are not branches. */
export function branchOf(ref: string): string | null {
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

/**
 * A branch pattern where `*` matches any run of characters. Matched by hand rather than as a
 * regular expression: `a*a*a*b` turned into /^a.*a.*a.*b$/ backtracks exponentially in the
 * number of stars over a long branch name, and branch names are chosen by whoever can push.
 * Greedy with one remembered star: O(pattern × name) at worst.
 */
export class Glob {
  constructor(private readonly pattern: string) {}

  test(text: string): boolean {
    const p = this.pattern;
    let i = 0;
    let j = 0;
    let star = -1;
    let resume = 0;
    while (j < text.length) {
      if (i < p.length && p[i] !== '*' && p[i] === text[j]) {
        i += 1;
        j += 1;
      } else if (i < p.length && p[i] === '*') {
        star = i;
        resume = j;
        i += 1;
      } else if (star !== -1) {
        i = star + 1;
        resume += 1;
        j = resume;
      } else return false;
    }
    while (i < p.length && p[i] === '*') i += 1;
    return i === p.length;
  }
}
