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
  FindSymbolInputSchema,
  FindSymbolOutputSchema,
  FileOutlineInputSchema,
  FileOutlineOutputSchema,
  FindReferencesInputSchema,
  FindReferencesOutputSchema,
  type ToolName,
} from '@gitdex/contracts';
import type { z } from 'zod';
import type { Principal, ReaderDeps } from '../deps';
import type { ToolAnswer } from './answer';
import { fileOutline } from './file-outline';
import { findReferences } from './find-references';
import { findSymbol } from './find-symbol';
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

const FRESHNESS_HINT = 'Answers name the indexed commit shown; freshness.pending says a newer push is still being indexed.';

/** The reader tools: what MCP registers and the REST API serves, from one table. */
export const TOOLS = {
  read_file: define({
    name: 'read_file',
    title: 'Read a file',
    description: [
      'Read a file of an indexed GitHub repository, or a range of its lines, from the index.',
      'Lines come numbered like `cat -n`. At most 400 lines and 16,000 characters a call; a longer single line is cut and says so.',
      'total_lines, complete and next_start_line say how to read on (start_line = next_start_line).',
      'Byte reads (offset, max_bytes, encoding "text" or "base64", read on from next_offset) give exact bytes of any stored file, binaries too; not mixed with lines.',
      'line_ending, ends_with_newline and file_encoding say how to rebuild the file. Binary, too large, symlink and submodule files are described; vendored and generated ones are flagged.',
      'A missing path answers with the closest paths ("Did you mean") and where a moved file went.',
      "path may be a published site's document URL (repository may then be left out; front_matter comes back).",
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
      'List a folder of an indexed repository: folders first (with file counts), then files (size, language, flags), in path order, with full paths.',
      'depth 1 (default) to 64 lists deeper levels. limit entries a page (default 200, at most 1,000); total_entries and remaining count the rest.',
      'Pass next_cursor back as cursor to page on: later pages list the same commit as the first, even after a push, until the index drops it.',
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
      'Describe an indexed repository: indexed commit and time, file counts, languages, top-level folders and files, open pull requests, and the start of the README (read_file reads the rest).',
      'A good first call on an unfamiliar repository; then find_symbol, file_outline and find_references navigate its code by symbols.',
    ].join(' '),
    input: RepositoryOverviewInputSchema,
    output: RepositoryOverviewOutputSchema,
    run: repositoryOverview,
  }),
  repositories_state: define({
    name: 'repositories_state',
    title: 'Index state of repositories',
    description: [
      'Say for each repository whether it is indexed and readable: commit, file count, indexed time, indexer status and last error, and whether a newer push is pending.',
      'Without repositories: every repository you can read (at most 200). A known repository not indexed yet is queued by this call.',
      'One gitdex never heard of is looked up on GitHub (a few a minute) and queued when the server allows it for you; otherwise it says how to index it.',
    ].join(' '),
    input: RepositoriesStateInputSchema,
    output: RepositoriesStateOutputSchema,
    run: repositoriesState,
  }),
  suggest_paths: define({
    name: 'suggest_paths',
    title: 'Suggest paths',
    description: [
      'Find the files of an indexed repository a path most likely means: misspelt, partial (typed so far), misplaced, or in the wrong case, case style or extension.',
      'Best first, each with a score (0 to 1) and reason; a moved file comes first with reason "moved".',
    ].join(' '),
    input: SuggestPathsInputSchema,
    output: SuggestPathsOutputSchema,
    run: suggestPaths,
  }),
  search_code: define({
    name: 'search_code',
    title: 'Search code',
    description: [
      'Find lines in indexed repositories: a literal substring (default) or an RE2 regex (regex: true), exactly the lines `git grep -n` finds at the indexed commit.',
      'Smart case (case-insensitive unless the query has an upper-case letter). Without repository/repositories: every repository you can read (default branches).',
      'Vendored and generated files only with include_generated; binary and too large files are skipped (counted).',
      'Files come best first, each with matching lines, context and a GitHub URL; next_cursor pages on over the same commits.',
      'A search stops at its deadline with complete: false. RE2 has no backreferences or lookaround.',
      FRESHNESS_HINT,
    ].join(' '),
    input: SearchCodeInputSchema,
    output: SearchCodeOutputSchema,
    run: searchCode,
  }),
  find_symbol: define({
    name: 'find_symbol',
    title: 'Find a symbol definition',
    description: [
      'Find where functions, classes, methods and types are defined (parsed with tree-sitter), by name, "Container.name" or a * pattern, in every repository you can read by default.',
      'Best first, each with path, line, end_line, signature and URL; read it with read_file start_line/end_line.',
      'Nothing found gives did_you_mean; search_code finds any text.',
    ].join(' '),
    input: FindSymbolInputSchema,
    output: FindSymbolOutputSchema,
    run: findSymbol,
  }),
  file_outline: define({
    name: 'file_outline',
    title: 'Outline a file',
    description: [
      "A file's definitions in file order, nested (children), each with kind, line, end_line and signature.",
      'The cheap first look at a large file: then read_file start_line/end_line reads the part you need.',
    ].join(' '),
    input: FileOutlineInputSchema,
    output: FileOutlineOutputSchema,
    run: fileOutline,
  }),
  find_references: define({
    name: 'find_references',
    title: 'Find references',
    description: [
      'Find where an identifier is used in code (not comments or strings), by file, each occurrence marked definition, reference or import, plus the definitions it may mean.',
      'Search-based, not compiler-resolved: same-named symbols mix (narrow with repository, path or language).',
    ].join(' '),
    input: FindReferencesInputSchema,
    output: FindReferencesOutputSchema,
    run: findReferences,
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
