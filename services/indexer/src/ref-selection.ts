/**
 * Which refs of a repository are indexed. Patterns are branch names with `*` globs;
 * the word `default` stands for the repository's default branch (the default setting).
 */
export class RefSelection {
  private readonly patterns: RegExp[];
  private readonly includesDefault: boolean;

  constructor(patterns: readonly string[]) {
    this.includesDefault = patterns.includes('default');
    this.patterns = patterns
      .filter((p) => p !== 'default')
      .map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`));
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
