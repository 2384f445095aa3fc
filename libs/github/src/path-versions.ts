import { createHash } from 'node:crypto';
import type { SourceCommitVersions, SourcePathVersion } from '@gitdex/ports';

/**
 * Files asked in one query (commits × paths). GitHub answers a query of object(oid:) and
 * file(path:) fields without connections at one point, but a large one runs into its time limit;
 * past this a push's commits are read one by one instead.
 */
export const PATH_VERSIONS_MAX_FILES = 1000;

interface GraphQLEntry {
  oid: string;
  mode: number;
  type: string;
  object?: { text?: string | null; isTruncated?: boolean } | null;
}

export type PathVersionsAnswer = { repository: Record<string, (Record<string, unknown> & { changedFilesIfAvailable?: number | null; additions?: number; deletions?: number }) | null> | null };

/**
 * One query: each commit by alias c<i>, its counts and, for each path, the entry f<j> (with the
 * blob's text for commits in withContent). Paths and oids travel as variables, never in the text.
 */
export function pathVersionsQuery(commits: readonly string[], paths: readonly string[], withContent: ReadonlySet<string>): { query: string; variables: Record<string, string> } {
  const variables: Record<string, string> = {};
  commits.forEach((sha, i) => (variables[`c${i}`] = sha));
  paths.forEach((path, j) => (variables[`p${j}`] = path));
  const blob = ' object { ... on Blob { text isTruncated } }';
  const selections = commits.map((sha, i) => {
    const files = paths.map((_, j) => `f${j}: file(path: $p${j}) { oid mode type${withContent.has(sha) ? blob : ''} }`).join(' ');
    return `c${i}: object(oid: $c${i}) { ... on Commit { changedFilesIfAvailable additions deletions ${files} } }`;
  });
  const declared = [...commits.map((_, i) => `$c${i}: GitObjectID!`), ...paths.map((_, j) => `$p${j}: String!`)].join(', ');
  return { query: `query($owner: String!, $name: String!, ${declared}) { repository(owner: $owner, name: $name) { ${selections.join(' ')} } }`, variables };
}

const gitBlobSha = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

/** The answer by commit; a blob's text is kept only when it is exactly its bytes (checked against the oid). */
export function readPathVersions(answer: PathVersionsAnswer, commits: readonly string[], paths: readonly string[]): Map<string, SourceCommitVersions> | null {
  const out = new Map<string, SourceCommitVersions>();
  for (const [i, sha] of commits.entries()) {
    const node = answer.repository?.[`c${i}`];
    if (!node || node.additions === undefined || node.deletions === undefined) return null;
    const files = new Map<string, SourcePathVersion>();
    paths.forEach((path, j) => {
      const entry = node[`f${j}`] as GraphQLEntry | null | undefined;
      if (!entry) return;
      const type = entry.type === 'tree' || entry.type === 'commit' ? entry.type : 'blob';
      const version: SourcePathVersion = { sha: entry.oid, mode: entry.mode.toString(8).padStart(6, '0'), type };
      const text = entry.object?.text;
      if (typeof text === 'string' && !entry.object?.isTruncated) {
        const bytes = Buffer.from(text, 'utf8');
        if (gitBlobSha(bytes) === entry.oid) version.content = bytes;
      }
      files.set(path, version);
    });
    out.set(sha, { changedFiles: node.changedFilesIfAvailable ?? null, additions: node.additions, deletions: node.deletions, files });
  }
  return out;
}
