/**
 * Which refs of a repository are indexed. Patterns are branch names with `*` globs, or
 * full-ref globs starting with `refs/` (`refs/tags/v*`, `refs/heads/release/*`); the word
 * `default` stands for the repository's default branch (the default setting).
 */
export class RefSelection {
  private readonly patterns: RegExp[];
  /** Full-ref patterns, matched against the whole ref (tags among them). */
  private readonly refPatterns: RegExp[];
  private readonly refGlobs: string[];
  private readonly includesDefault: boolean;

  constructor(patterns: readonly string[]) {
    this.includesDefault = patterns.includes('default');
    const glob = (p: string) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    this.patterns = patterns.filter((p) => p !== 'default' && !p.startsWith('refs/')).map(glob);
    this.refGlobs = patterns.filter((p) => p.startsWith('refs/'));
    this.refPatterns = this.refGlobs.map(glob);
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
