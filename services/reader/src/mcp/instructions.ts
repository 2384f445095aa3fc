/**
 * What an MCP client is told at initialize (and usually shows the model): every tool and when
 * to use it, in the order an agent meets a repository. A test checks that each tool is named.
 */
export const INSTRUCTIONS = [
  'gitdex serves GitHub repositories from an index that push webhooks keep fresh: reads never wait for GitHub.',
  'repositories_state: which repositories are indexed and readable (one known but not indexed yet is queued by asking).',
  'repository_overview: the first call on an unfamiliar repository (its layout, languages and README).',
  'list_files: browse a folder, one level or deeper, paging with next_cursor.',
  'search_code: find where text or an RE2 regular expression occurs (the lines `git grep -n` finds), in one repository or in every one you can read; use it for any text, a message or a name in comments, and when find_symbol finds nothing.',
  'find_symbol: where a function, class, method or type is defined, by name, "Container.name" or a * pattern, in one repository or every one you can read; faster and more precise than search_code for definitions.',
  'file_outline: the definitions of a file, nested, with their lines: look before reading a large file, then read_file only the lines you need.',
  'find_references: where an identifier is used in code (search-based, not compiler-resolved), by file, with the definitions it may mean.',
  'read_file: read a file or a range of its lines (numbered; page on with next_start_line), or its bytes.',
  'suggest_paths: the files a wrong, misspelt or half-known path most likely means.',
  'list_commits: the commits of a ref or of one file or folder, newest first, as git log lists them.',
  'compare: what changed between two refs or commits (a push, a pull request), as git diff -M base...head.',
  'blame: which commit last changed each line of a file, and why.',
  'Files are also resources, gitdex://owner/repo/path.',
  'Answers name the indexed commit; freshness.pending says a newer push is still being indexed.',
  'After a push, pass its sha as min_commit to read that commit or later; subscribe to gitdex://owner/repo to hear of new commits.',
].join(' ');
