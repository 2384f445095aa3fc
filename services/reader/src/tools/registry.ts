import {
  BlameInputSchema,
  BlameOutputSchema,
  CompareInputSchema,
  CompareOutputSchema,
  ListCommitsInputSchema,
  ListCommitsOutputSchema,
  ListFilesInputSchema,
  ListFilesOutputSchema,
  ReadFileInputSchema,
  ReadFileOutputSchema,
  RepositoriesStateInputSchema,
  RepositoriesStateOutputSchema,
  RepositoryOverviewInputSchema,
  RepositoryOverviewOutputSchema,
  SearchCodeInputSchema,
  SearchCodeOutputSchema,
  SuggestPathsInputSchema,
  SuggestPathsOutputSchema,
  type ToolName,
} from '@gitdex/contracts';
import type { z } from 'zod';
import type { Principal, ReaderDeps } from '../deps';
import type { ToolAnswer } from './answer';
import { blame } from './blame';
import { compare } from './compare';
import { listCommits } from './list-commits';
import { listFiles } from './list-files';
import { readFile } from './read-file';
import { repositoriesState } from './repositories-state';
import { repositoryOverview } from './repository-overview';
import { searchCode } from './search-code';
import { suggestPaths } from './suggest-paths';

export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: ToolName;
  title: string;
  description: string;
  input: I;
  output: O;
  run(deps: ReaderDeps, principal: Principal | null, input: z.infer<I>): Promise<ToolAnswer<z.infer<O>>>;
}

function define<I extends z.ZodType, O extends z.ZodType>(definition: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return definition;
}

const REPOSITORY_HINT = 'repository is "owner/name" or its GitHub URL; ref is a branch, a tag or full ref, a commit the index holds (sha or 7+ digit prefix), or ref~N (default: the default branch).';
const FRESHNESS_HINT = 'Every answer says the indexed commit it shows and whether a newer push is still being indexed (freshness.pending), and older_commit when it shows an older held commit.';

/** The reader tools: what MCP registers and the REST API serves, from one table. */
export const TOOLS = {
  read_file: define({
    name: 'read_file',
    title: 'Read a file',
    description: [
      'Read a file of an indexed GitHub repository, or a range of its lines, from the index (never GitHub itself).',
      'Lines come numbered as `cat -n` shows them: the line number right-aligned, a tab, then the line exactly as in the file.',
      'At most 400 lines and 16,000 characters a call, always at least one line; a single longer line is cut and says so (read it whole by bytes).',
      'line_ending and ends_with_newline say how to rebuild the file from the lines; file_encoding says what the text was decoded from (utf-8, utf-16le/be, windows-1252).',
      'Byte reads: give offset (bytes from the start), max_bytes (default and most 64 KiB, fewer when the result budget is reached) or encoding ("text" or "base64") instead of lines, and read on from next_offset; text pages never split a character, base64 gives the exact bytes of any stored file, binaries too. Lines and bytes are not mixed in one call.',
      'The answer gives total_lines, complete (the end of the file was reached) and next_start_line: call again with start_line = next_start_line to read on.',
      'path is from the repository root (a leading slash is ignored) or a GitHub URL .../blob/<ref>/<path>#L10-L20, which also gives ref and lines. start_line and end_line are 1-based and inclusive; a start_line past the end reads the last line.',
      'A line read describes binary (read its bytes with encoding "base64"), too large (listed, content not stored), symlink and submodule files; vendored and generated files are stored, readable and flagged.',
      'A path that does not exist answers with the closest paths ("Did you mean") and where a moved file went.',
      'path may also be the published URL of a document of a configured site (a blog post, a docs page): repository may then be left out, the front matter comes back as front_matter (title, date, tags) and the lines start at the body; an unknown URL answers with the configured sites.',
      REPOSITORY_HINT,
      FRESHNESS_HINT,
    ].join(' '),
    input: ReadFileInputSchema,
    output: ReadFileOutputSchema,
    run: readFile,
  }),
  list_files: define({
    name: 'list_files',
    title: 'List a folder',
    description: [
      'List a folder of an indexed repository: folders first (each with the number of files under it), then files (with size, language and flags), each in path order.',
      "depth 1 (default) lists the folder's own entries; up to 64 lists deeper levels too. Entries carry their full path from the root.",
      'A page holds at most limit entries (default 200, at most 1,000, fewer when the result budget is reached); total_entries and remaining count the rest.',
      'To page, pass next_cursor back as cursor, unchanged: later pages list the same commit as the first one, even after a push, until the index drops that commit (then the cursor expires and says so).',
      'folder may be a GitHub URL .../tree/<ref>/<folder>.',
      REPOSITORY_HINT,
      FRESHNESS_HINT,
    ].join(' '),
    input: ListFilesInputSchema,
    output: ListFilesOutputSchema,
    run: listFiles,
  }),
  repository_overview: define({
    name: 'repository_overview',
    title: 'Repository overview',
    description: [
      'Describe an indexed repository: the indexed commit and when it was indexed, numbers of files, code files and documentation files, languages by number of files, the top-level folders (with file counts) and files, and the README (its first 6,000 characters, whether it was cut, and its path: read_file reads the rest).',
      'A good first call on an unfamiliar repository.',
      REPOSITORY_HINT,
    ].join(' '),
    input: RepositoryOverviewInputSchema,
    output: RepositoryOverviewOutputSchema,
    run: repositoryOverview,
  }),
  repositories_state: define({
    name: 'repositories_state',
    title: 'Index state of repositories',
    description: [
      'Say for each repository whether it is indexed and readable: commit, number of files, when it was indexed, status and last error of the indexer, and whether a newer push is being indexed (pending).',
      'Without repositories, reports every repository you can read (at most 200; name others to see them).',
      'A repository that is known but not indexed yet is queued for indexing by this call.',
      'One gitdex never heard of is looked up on GitHub and queued when this server allows it for you (by default: your token names it) and GitHub has it (a private one only if your token names it); otherwise it says how to index it. Such lookups are limited to a few a minute.',
    ].join(' '),
    input: RepositoriesStateInputSchema,
    output: RepositoriesStateOutputSchema,
    run: repositoriesState,
  }),
  suggest_paths: define({
    name: 'suggest_paths',
    title: 'Suggest paths',
    description: [
      'Find the files of an indexed repository that a path most likely means: misspelt ("src/compnents/Buton.tsx"), typed so far ("src/comp"), misplaced (wrong or missing folders, a file name alone), in the wrong case, case style (snake_case, kebab-case, camelCase) or extension.',
      'Best first, each with a score from 0 to 1 and the reason it matches; a file that moved comes first with reason "moved". limit: default 10, at most 50.',
      REPOSITORY_HINT,
    ].join(' '),
    input: SuggestPathsInputSchema,
    output: SuggestPathsOutputSchema,
    run: suggestPaths,
  }),
  search_code: define({
    name: 'search_code',
    title: 'Search code',
    description: [
      'Find lines in the files of indexed repositories: a literal substring (default) or an RE2 regular expression (regex: true), line by line, exactly the lines `git grep -n` finds at the indexed commit.',
      'Case-insensitive unless the query has an upper-case letter (or case_sensitive says otherwise). Without repository/repositories it searches every repository you can read (default branches); repositories takes "owner/name" and "owner/*".',
      'path and exclude take globs ("src/**/*.ts"; "*.go" matches at any depth); language filters by language; vendored and generated files are searched only with include_generated: true. Binary and too large files are not searched (counted in skipped).',
      'Files come best first (whole-word and exact-case matches, definitions, source before tests), each with its matching lines (line numbers as read_file uses them, context_lines around, default 2) and a GitHub URL. limit files a page (default 20); next_cursor pages on over the same commits.',
      'A search stops at its deadline and then says complete: false with what it found. RE2 has no backreferences or lookaround.',
      FRESHNESS_HINT,
    ].join(' '),
    input: SearchCodeInputSchema,
    output: SearchCodeOutputSchema,
    run: searchCode,
  }),
  compare: define({
    name: 'compare',
    title: 'Compare two commits',
    description: [
      'What changed from base to head, as `git diff -M base...head` says: from their merge base, so a branch that moved on adds nothing. Use it to review a push or pull request.',
      "files[] in git's order: path, previous_path (renames), status, additions, deletions, binary, and patch (hunks from the first @@, context_lines around). Pages by cursor; limits says what a page holds.",
      'Reads the history the index holds.',
    ].join(' '),
    input: CompareInputSchema,
    output: CompareOutputSchema,
    run: compare,
  }),
  blame: define({
    name: 'blame',
    title: 'Blame a file',
    description: [
      'Who last changed each line of a file, and why: ranges[] of lines with the commit (sha, author, date, summary) `git blame` names.',
      'Lines older than the history held go to its oldest commit with boundary: true. start_line and end_line narrow the answer.',
    ].join(' '),
    input: BlameInputSchema,
    output: BlameOutputSchema,
    run: blame,
  }),
  list_commits: define({
    name: 'list_commits',
    title: 'List commits',
    description: [
      'Commits of a ref, newest first: what `git log REF [-- PATH]` lists, within the history the index holds (recent commits of each ref, every push since).',
      'For "what changed lately", "who changed this file", or a sha to compare or blame.',
      'reached_oldest_held: older commits are not held.',
    ].join(' '),
    input: ListCommitsInputSchema,
    output: ListCommitsOutputSchema,
    run: listCommits,
  }),
} satisfies Record<ToolName, ToolDefinition<z.ZodType, z.ZodType>>;

export type Tools = typeof TOOLS;
