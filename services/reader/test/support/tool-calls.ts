/** One tools/call of every tool, and a few that fail, on the test world (support/world.ts): a direct answer is compared with the SDK's for each. */
export const TOOL_CALL_CASES = [
  { name: 'read_file', arguments: { repository: 'octo/api', path: 'src/index.ts' } },
  { name: 'read_file', arguments: { repository: 'octo/api', path: 'long.txt', start_line: 3, end_line: 5 } },
  { name: 'read_file', arguments: { repository: 'octo/api', path: 'src/indx.ts' } },
  { name: 'read_file', arguments: { repository: 'octo/api' } },
  { name: 'read_file', arguments: { repository: 'nobody/nothing', path: 'a' } },
  { name: 'list_files', arguments: { repository: 'octo/api', depth: 2, limit: 3 } },
  { name: 'suggest_paths', arguments: { repository: 'octo/api', query: 'src/indx.ts' } },
  { name: 'repository_overview', arguments: { repository: 'octo/api' } },
  { name: 'repositories_state', arguments: {} },
  { name: 'search_code', arguments: { query: 'start', repository: 'octo/api' } },
  { name: 'list_files', arguments: { repository: 'octo/api', depth: 'deep' } },
];
