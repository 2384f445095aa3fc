/** Most names (and refs, and generations) kept: past it they are forgotten at once. */
const MAX_HINTS = 10_000;

/**
 * The key of a name's hint: one caller's reads never speed up another's, so how long an
 * answer takes tells nobody what someone else read (a private repository a token read
 * recently would otherwise answer an anonymous caller with one more index round trip than a
 * name that does not exist).
 */
export function hintKey(principal: { id: string } | null, name: string): string {
  return principal ? `principal:${principal.id}\0${name}` : `anonymous\0${name}`;
}

/**
 * What the reader remembers between calls only to guess what to ask for, never to answer:
 * the repository a name stood for, the ref a ref argument resolved to, and a ref's last
 * generation. With a guess, a read asks for the repository, its ref states and the file in
 * one round trip (lookupForRead), and checks each guess against those fresh answers.
 * Names are kept per caller (hintKey); refs and generations by repository id, reached only
 * through a caller's own name.
 */
export class ReadHints {
  private readonly names = new Map<string, { repositoryId: number; defaultBranch: string }>();
  private readonly refs = new Map<string, string>();
  private readonly generations = new Map<string, number>();

  repositoryOf(name: string): { repositoryId: number; defaultBranch: string } | undefined {
    return this.names.get(name);
  }

  /** The full ref a ref argument (none: the default branch) most likely means. */
  refOf(name: string, refInput: string | undefined): string | undefined {
    const repository = this.names.get(name);
    if (!repository) return undefined;
    if (refInput === undefined) return `refs/heads/${repository.defaultBranch}`;
    const text = refInput.trim();
    return this.refs.get(`${repository.repositoryId}\0${text}`) ?? (text.startsWith('refs/') ? text : `refs/heads/${text}`);
  }

  /** The generation a ref was last read at: a lower bound of the next, unless the ref was re-created. */
  generationOf(repositoryId: number, ref: string): number {
    return this.generations.get(`${repositoryId}\0${ref}`) ?? 0;
  }

  learnRepository(name: string, repository: { repositoryId: number; defaultBranch: string }): void {
    remember(this.names, name, { repositoryId: repository.repositoryId, defaultBranch: repository.defaultBranch });
  }

  forgetRepository(name: string): void {
    this.names.delete(name);
  }

  learnRead(refInput: string | undefined, snapshot: { repositoryId: number; ref: string; generation: number }): void {
    if (refInput !== undefined) remember(this.refs, `${snapshot.repositoryId}\0${refInput.trim()}`, snapshot.ref);
    remember(this.generations, `${snapshot.repositoryId}\0${snapshot.ref}`, snapshot.generation);
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= MAX_HINTS && !map.has(key)) map.clear();
  map.set(key, value);
}
