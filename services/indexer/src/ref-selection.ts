/**
 * Which refs of a repository are indexed. Patterns are branch names with `*` globs;
 * the word `default` stands for the repository's default branch (the default setting).
 */
export class RefSelection {
  private readonly patterns: Glob[];
  private readonly includesDefault: boolean;

  constructor(patterns: readonly string[]) {
    this.includesDefault = patterns.includes('default');
    this.patterns = patterns.filter((p) => p !== 'default').map((p) => new Glob(p));
  }

  /** Whether patterns beyond the default branch need the repository's branch list. */
  get needsBranchList(): boolean {
    return this.patterns.length > 0;
  }

  includes(ref: string, defaultBranch: string): boolean {
    const branch = branchOf(ref);
    if (branch === null) return false;
    return (this.includesDefault && branch === defaultBranch) || this.patterns.some((p) => p.test(branch));
  }

  /** The full refs to index, from the repository's branches (or only its default branch). */
  select(defaultBranch: string, branches: readonly string[] = []): string[] {
    const names = new Set<string>(this.includesDefault ? [defaultBranch] : []);
    for (const branch of branches) if (this.patterns.some((p) => p.test(branch))) names.add(branch);
    return [...names].sort().map((b) => `refs/heads/${b}`);
  }
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
