import { posix } from 'node:path';
import type { FileDocument, ListEntry, RepositoryOverviewInput, RepositoryOverviewOutput } from '@gitdex/contracts';
import type { FileSummary, Snapshot } from '@gitdex/ports';
import type { Principal, ReaderDeps } from '../deps';
import { shortRef, shortSha } from '../freshness';
import { cutText, flagWords, flagsOutput, formatBytes, formatCount, resultChars } from '../format/text';
import { openRepository, openTarget } from '../address/open-repository';
import { refOfRepositoryUrl } from '../address/repository-name';
import { openPullRequests, pullRequestLines } from '../pull-requests';
import { pendingLine, type ToolAnswer } from './answer';

/** Root entries shown; the rest are counted (list_files shows them). */
const MAX_TOP_LEVEL = 300;
/** Open pull requests listed; the rest are counted. */
const MAX_PULL_REQUESTS = 20;
/** Root files read to find the README: roots with more files are rare. */
const ROOT_FILES = 1000;

/** repository_overview: indexed commit, counts, languages, the root's entries and the README. */
export async function repositoryOverview(deps: ReaderDeps, principal: Principal | null, input: RepositoryOverviewInput): Promise<ToolAnswer<RepositoryOverviewOutput>> {
  const opened = await openRepository(deps, principal, input.repository);
  const { repository } = opened;
  // Fetched once: the ref to read and the open pull requests both come from them.
  const states = opened.states ?? (await deps.index.listRefStates(repository.repositoryId));
  const { target } = await openTarget(deps, opened, input.ref ?? refOfRepositoryUrl(input.repository, deps.githubWebUrl), states);
  const pulls = openPullRequests(states, MAX_PULL_REQUESTS);
  const { snapshot, state } = target;
  const root = { ...snapshot, folder: '', depth: 1 };
  const [stats, folders, files] = await Promise.all([deps.index.stats(snapshot), deps.index.listFolders(root), deps.index.listFiles(root, null, ROOT_FILES)]);
  const readme = await readReadme(deps, snapshot, files.files);

  const entries: ListEntry[] = [
    ...folders.map((f): ListEntry => ({ type: 'folder', path: f.path, name: f.path, file_count: f.fileCount })),
    ...files.files.map((f): ListEntry => ({
      type: 'file',
      path: f.path,
      name: f.name,
      kind: f.kind,
      size: f.size,
      language: f.language,
      flags: flagsOutput(f.flags),
      ...(f.target !== undefined ? { target: f.target } : {}),
    })),
  ];
  const languages = Object.entries(stats.languages)
    .map(([language, count]) => ({ language, files: count }))
    .sort((a, b) => b.files - a.files || (a.language < b.language ? -1 : 1));
  const build = (shown: number): ToolAnswer<RepositoryOverviewOutput> => {
    const topLevel = entries.slice(0, shown);
    const structured: RepositoryOverviewOutput = {
      repository: repository.fullName,
      ref: state.ref,
      default_branch: repository.defaultBranch,
      html_url: repository.htmlUrl,
      archived: repository.archived,
      file_count: stats.fileCount,
      code_files: stats.categories.code ?? 0,
      documentation_files: stats.categories.documentation ?? 0,
      total_bytes: stats.totalBytes,
      languages,
      top_level: topLevel,
      top_level_omitted: folders.length + files.total - topLevel.length,
      readme,
      ...pulls,
      freshness: target.freshness,
    };

    const lines = [
      `${repository.fullName} at ${shortRef(state.ref)} (${shortSha(state.commitSha)}), indexed ${state.indexedAt ?? 'at an unknown time'}${repository.archived ? ' (archived)' : ''}${pendingLine(target.freshness)}`,
      `${formatCount(stats.fileCount, 'file')} (${stats.categories.code ?? 0} code, ${stats.categories.documentation ?? 0} documentation), ${formatBytes(stats.totalBytes)}`,
      `Languages: ${
        languages.length > 0
          ? languages
              .slice(0, 12)
              .map((l) => `${l.language} ${l.files}`)
              .join(', ')
          : 'none detected'
      }`,
      'Symbols: find_symbol finds where a name is defined, file_outline lists the definitions of a file (look before reading a large one), find_references finds where a name is used.',
      '',
      'Top level:',
      ...topLevel.map((e) => (e.type === 'folder' ? `${e.path}/  (${formatCount(e.file_count, 'file')})` : `${e.path}  ${formatBytes(e.size)}${flagWords(e.flags, e.kind, e.target)}`)),
      ...(structured.top_level_omitted > 0 ? [`[${structured.top_level_omitted} more: list_files shows them]`] : []),
    ];
    if (pulls.pull_requests.length > 0) lines.push('', 'Open pull requests (read or search one with ref "pull/N"):', ...pullRequestLines(pulls));
    if (readme) {
      lines.push(
        '',
        `${readme.path}${readme.truncated ? ` (first ${readme.content.length.toLocaleString('en-US')} of ${readme.total_chars.toLocaleString('en-US')} characters; read_file reads the rest)` : ''}:`,
        '',
        readme.content,
      );
    } else lines.push('', 'No README at the root.');
    return { structured, text: lines.join('\n') };
  };
  // Root entries with very long names could overflow a result: show fewer of them.
  let shown = Math.min(MAX_TOP_LEVEL, entries.length);
  let result = build(shown);
  while (shown > 0 && resultChars(result.text, result.structured) > deps.limits.maxResultChars) {
    shown = Math.floor(shown / 2);
    result = build(shown);
  }
  return result;
}

/** README*, case-insensitive, at the root: README.md first, then other Markdown, then the rest. */
export function pickReadme(files: Pick<FileSummary, 'path' | 'name'>[]): string[] {
  const rank = (name: string): number => {
    if (name === 'README.md') return 0;
    const lower = name.toLowerCase();
    if (lower === 'readme.md') return 1;
    if (/^readme\.(markdown|mdx|mdown)$/.test(lower)) return 2;
    if (/^readme\.(rst|adoc|asciidoc|org)$/.test(lower)) return 3;
    if (lower === 'readme' || lower === 'readme.txt') return 4;
    return 5;
  };
  return files
    .filter((f) => !f.path.includes('/') && /^readme(\.|$)/i.test(f.name))
    .sort((a, b) => rank(a.name) - rank(b.name) || (a.path < b.path ? -1 : 1))
    .map((f) => f.path);
}

async function readReadme(deps: ReaderDeps, snapshot: Snapshot, rootFiles: FileSummary[]): Promise<RepositoryOverviewOutput['readme']> {
  for (const path of pickReadme(rootFiles)) {
    let file: FileDocument | null = await deps.index.getFile(snapshot, path);
    // A README that links to the real one (docs/README.md): follow it once.
    if (file?.kind === 'symlink' && file.target) {
      const linked = posix.normalize(posix.join(posix.dirname(path), file.target));
      file = linked.startsWith('..') || posix.isAbsolute(linked) ? null : await deps.index.getFile(snapshot, linked);
    }
    if (!file || file.kind !== 'file' || file.content === null || file.flags.binary) continue;
    const content = cutText(file.content, deps.limits.maxReadmeChars);
    return { path: file.path, content, truncated: content.length < file.content.length, total_chars: file.content.length };
  }
  return null;
}
