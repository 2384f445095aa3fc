import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { locate } from '../address/locate';
import type { Principal, ReaderDeps } from '../deps';
import { cutText } from '../format/text';
import { pathNotFound } from '../not-found';
import { listFiles } from '../tools/list-files';
import { suggestPaths } from '../tools/suggest-paths';
import { asToolError, withCallDeadline } from '../tools/call-tool';
import { ToolError } from '../tool-error';
import { errorFields } from '@gitdex/observability';

/** Completions answered at most; the protocol caps a completion at 100 values. */
const MAX_COMPLETIONS = 20;
/** MCP's error code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * A completion offers nothing when it fails: a ToolError (unknown repository, bad input) is the
 * caller's; anything else (the index down, a bug) is logged, as the caller is never told.
 */
function noCompletions(deps: ReaderDeps, error: unknown): string[] {
  if (!(error instanceof ToolError)) deps.logger?.warn(errorFields(error), 'reader: a completion failed; none offered');
  return [];
}

/** Names of the repositories the caller may read, starting with what was typed. */
export async function completeRepository(deps: ReaderDeps, principal: Principal | null, typed: string): Promise<string[]> {
  try {
    const lower = typed.toLowerCase();
    const names = (await withCallDeadline(deps, (scoped) => scoped.index.listRepositories())).filter((r) => deps.access(r, principal)).map((r) => r.fullName);
    const starting = names.filter((n) => n.toLowerCase().startsWith(lower));
    const containing = names.filter((n) => !n.toLowerCase().startsWith(lower) && n.toLowerCase().includes(lower));
    return [...starting, ...containing].slice(0, MAX_COMPLETIONS);
  } catch (error) {
    return noCompletions(deps, error);
  }
}

/** Paths of a repository for what was typed: the best suggestions, or the root's entries for nothing typed. */
export async function completePath(deps: ReaderDeps, principal: Principal | null, repository: string | undefined, typed: string): Promise<string[]> {
  if (!repository) return [];
  try {
    if (typed.replace(/^\/+/, '') === '') {
      const root = await withCallDeadline(deps, (scoped) => listFiles(scoped, principal, { repository, limit: MAX_COMPLETIONS }));
      return root.structured.entries.map((e) => (e.type === 'folder' ? `${e.path}/` : e.path));
    }
    const answer = await withCallDeadline(deps, (scoped) => suggestPaths(scoped, principal, { repository, query: typed, limit: MAX_COMPLETIONS }));
    return answer.structured.suggestions.map((s) => s.path);
  } catch (error) {
    return noCompletions(deps, error);
  }
}

/**
 * Files as resources: gitdex://{owner}/{repo}/{+path} reads a file of the default branch
 * whole, up to the result budget (read_file pages through longer ones). Its variables complete.
 */
export function registerFileResources(server: McpServer, deps: ReaderDeps, principal: Principal | null): void {
  const template = new ResourceTemplate('gitdex://{owner}/{repo}/{+path}', {
    list: undefined,
    complete: {
      owner: async (typed) => {
        const names = await completeRepository(deps, principal, '');
        const owners = [...new Set(names.map((n) => n.slice(0, n.indexOf('/'))))];
        return owners.filter((o) => o.toLowerCase().startsWith(typed.toLowerCase())).slice(0, MAX_COMPLETIONS);
      },
      repo: async (typed, context) => {
        const owner = context?.arguments?.owner ?? '';
        const names = await completeRepository(deps, principal, owner ? `${owner}/` : '');
        return names
          .map((n) => n.slice(n.indexOf('/') + 1))
          .filter((r) => r.toLowerCase().startsWith(typed.toLowerCase()))
          .slice(0, MAX_COMPLETIONS);
      },
      path: async (typed, context) => {
        const owner = context?.arguments?.owner;
        const repo = context?.arguments?.repo;
        return completePath(deps, principal, owner && repo ? `${owner}/${repo}` : undefined, typed);
      },
    },
  });
  server.registerResource(
    'file',
    template,
    {
      title: 'File of an indexed repository',
      description: 'A file of an indexed repository at its default branch: gitdex://owner/repo/path/to/file. Text up to 60,000 characters; read_file pages through longer files.',
    },
    async (uri, variables, extra) => {
      const value = (name: string) => {
        const v = variables[name];
        return Array.isArray(v) ? v.join('/') : (v ?? '');
      };
      const repository = `${value('owner')}/${value('repo')}`;
      try {
        const text = await withCallDeadline(deps, (scoped) => readWhole(scoped, principal, repository, safeDecode(value('path'))), extra.signal);
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
      } catch (error) {
        const toolError = error instanceof ToolError ? error : asToolError(deps, 'resources/read', error);
        const code =
          toolError.code === 'NOT_FOUND' || toolError.code === 'REPOSITORY_NOT_FOUND' ? RESOURCE_NOT_FOUND : toolError.code === 'INVALID_ARGUMENT' ? ErrorCode.InvalidParams : ErrorCode.InternalError;
        throw new McpError(code, toolError.message, { code: toolError.code, suggestions: toolError.suggestions });
      }
    },
  );
}

/** A file's text up to the result budget, or what it is when it has none. */
async function readWhole(deps: ReaderDeps, principal: Principal | null, repository: string, rawPath: string): Promise<string> {
  const { target, path } = await locate(deps, principal, { repository, path: rawPath, ref: undefined }, 'file');
  const file = await deps.index.getFile(target.snapshot, path);
  if (!file) throw await pathNotFound(deps, principal, target, path, 'file');
  if (file.kind !== 'file' || file.flags.binary || file.content === null) {
    const what =
      file.kind === 'symlink'
        ? `a symbolic link to ${file.target ?? '?'}`
        : file.kind === 'submodule'
          ? `a submodule at commit ${file.target ?? '?'}`
          : file.flags.binary
            ? 'a binary file'
            : 'content not stored (too large)';
    return `${path}: ${what} (${file.size} bytes).`;
  }
  const text = cutText(file.content, deps.limits.maxResultChars);
  return text.length < file.content.length ? `${text}\n… [cut at ${text.length} of ${file.content.length} characters: read_file reads the rest]` : text;
}

/** Prompts that start common work, with repository and path arguments that complete. */
export function registerFilePrompts(server: McpServer, deps: ReaderDeps, principal: Principal | null): void {
  const repository = completable(z.string().describe('The repository, owner/name.'), (typed) => completeRepository(deps, principal, typed));
  server.registerPrompt(
    'explore_repository',
    { title: 'Explore a repository', description: 'Get to know an indexed repository: overview, layout and where to start reading.', argsSchema: { repository } },
    ({ repository: name }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Explore the repository ${name} with the gitdex tools: call repository_overview, then list_files on its main folders, and read the files that show how it starts and how it is organised. Summarise what it does, its layout, and where to start reading.`,
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    'read_path',
    {
      title: 'Read a file',
      description: 'Read a file of an indexed repository and explain it.',
      argsSchema: {
        repository,
        path: completable(z.string().describe('The file path from the repository root.'), (typed, context) => completePath(deps, principal, context?.arguments?.repository, typed)),
      },
    },
    ({ repository: name, path }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Read ${path} of ${name} with read_file (page on with next_start_line until complete) and explain what it does and how it fits in the repository.` },
        },
      ],
    }),
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
