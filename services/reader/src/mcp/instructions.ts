/**
 * What an MCP client is told at initialize (and usually shows the model): every tool and when
 * to use it, in the order an agent meets a repository. A test checks that each tool is named.
 */
export const INSTRUCTIONS = [
  'gitdex serves GitHub repositories from an index that push webhooks keep fresh: reads never wait for GitHub.',
  'repositories_state: which repositories are indexed and readable (one known but not indexed yet is queued by asking).',
  'repository_overview: the first call on an unfamiliar repository (its layout, languages and README).',
  'list_files: browse a folder, one level or deeper, paging with next_cursor.',
  'search_code: find where text or an RE2 regular expression occurs (the lines `git grep -n` finds), in one repository or in every one you can read; use it to find a definition, its callers or a message instead of reading files one by one.',
  'read_file: read a file or a range of its lines (numbered; page on with next_start_line), or its bytes.',
  'suggest_paths: the files a wrong, misspelt or half-known path most likely means.',
  'list_commits: the commits of a ref or of one file or folder, newest first, as git log lists them.',
  'compare: what changed between two refs or commits (a push, a pull request), as git diff -M base...head.',
  'blame: which commit last changed each line of a file, and why.',
  'Files are also resources, gitdex://owner/repo/path.',
  'Answers name the indexed commit; freshness.pending says a newer push is still being indexed.',
].join(' ');
