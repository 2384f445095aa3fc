import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RepositoryDocument } from '@gitdex/contracts';
import type { Principal, ReaderDeps } from '../deps';
import { lookupByName } from '../target';
import { parseRepositoryName } from '../address/repository-name';
import { asToolError, withCallDeadline } from '../tools/call-tool';
import { repositoryOverview } from '../tools/repository-overview';
import { ToolError } from '../tool-error';

/** MCP's error code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;
/** Subscriptions one connection may hold: a client watching more repositories opens another. */
export const MAX_SUBSCRIPTIONS = 100;

/** The repository a gitdex:// URI names: gitdex://owner/repo, or any file of it (gitdex://owner/repo/path). */
export function repositoryOfUri(uri: string): string | null {
  const match = /^gitdex:\/\/([^/]+)\/([^/]+)(?:\/.*)?$/.exec(uri);
  return match ? `${safeDecode(match[1]!)}/${safeDecode(match[2]!)}` : null;
}

/** The repository name in the reader's own form, or null when it is not one (then: not found). */
function validName(deps: ReaderDeps, name: string | null): string | null {
  if (name === null) return null;
  try {
    return parseRepositoryName(name, deps.githubWebUrl);
  } catch {
    return null;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * resources/subscribe and resources/unsubscribe on one connection (a stdio process, or an HTTP
 * session: mcp/sessions.ts): a subscribed repository's refs are watched (the process's one
 * watcher per repository, waiting/repository-watchers.ts) and each new commit one of them
 * serves sends notifications/resources/updated for the URI subscribed. A repository the caller
 * may not read is refused exactly like one that does not exist. Everything stops when the
 * connection closes. Without `live` (a stateless HTTP request, which has no stream to notify
 * on) a subscribe is refused with what to do instead.
 */
export function registerSubscriptions(server: McpServer, deps: ReaderDeps, principal: Principal | null, live: boolean): void {
  const subscribed = new Map<string, () => void>();
  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    if (!live)
      throw new McpError(
        ErrorCode.InvalidRequest,
        'resources/subscribe needs a session: send initialize first and keep the mcp-session-id it answers with, then open the GET stream to receive notifications.',
      );
    if (subscribed.has(uri)) return {};
    if (subscribed.size >= MAX_SUBSCRIPTIONS) throw new McpError(ErrorCode.InvalidRequest, `At most ${MAX_SUBSCRIPTIONS} subscriptions a connection: unsubscribe from one first.`);
    const repository = await readable(deps, principal, uri);
    // What is served now is what the subscriber has: every flip after it is notified.
    const baseline = await deps.index.listRefStates(repository.repositoryId);
    const stop = deps.watchers.listen(
      repository.repositoryId,
      (_states, flipped) => {
        if (flipped.length === 0) return;
        server.server.sendResourceUpdated({ uri }).catch((error: unknown) => deps.logger?.warn({ err: error, uri }, 'reader: a resource notification could not be sent'));
      },
      baseline,
    );
    subscribed.set(uri, stop);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.get(request.params.uri)?.();
    subscribed.delete(request.params.uri);
    return {};
  });
  const previous = server.server.onclose;
  server.server.onclose = () => {
    previous?.();
    for (const stop of subscribed.values()) stop();
    subscribed.clear();
  };
}

async function readable(deps: ReaderDeps, principal: Principal | null, uri: string): Promise<RepositoryDocument> {
  const name = validName(deps, repositoryOfUri(uri));
  const repository = name ? await lookupByName(deps, name) : null;
  if (repository && deps.access(repository, principal)) return repository;
  // The same words for a private repository and a missing one.
  throw new McpError(RESOURCE_NOT_FOUND, `Resource ${uri} not found: no indexed repository you can read has that name. Subscribe to gitdex://owner/repo of a repository repositories_state lists.`);
}

/**
 * Repositories as resources: gitdex://{owner}/{repo} reads the repository's overview (what
 * repository_overview says), and is what resources/subscribe takes to hear of new commits.
 */
export function registerRepositoryResource(server: McpServer, deps: ReaderDeps, principal: Principal | null): void {
  server.registerResource(
    'repository',
    new ResourceTemplate('gitdex://{owner}/{repo}', { list: undefined }),
    {
      title: 'Indexed repository',
      description: 'An indexed repository: gitdex://owner/repo reads its overview; subscribe to it to hear when one of its refs serves a new commit.',
    },
    async (uri, variables, extra) => {
      const value = (name: string) => {
        const v = variables[name];
        return safeDecode(Array.isArray(v) ? v.join('/') : (v ?? ''));
      };
      try {
        const answer = await withCallDeadline(deps, (scoped) => repositoryOverview(scoped, principal, { repository: `${value('owner')}/${value('repo')}` }), extra.signal);
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: answer.text }] };
      } catch (error) {
        const toolError = error instanceof ToolError ? error : asToolError(deps, 'resources/read', error);
        const code =
          toolError.code === 'NOT_FOUND' || toolError.code === 'REPOSITORY_NOT_FOUND' || toolError.code === 'NOT_INDEXED'
            ? RESOURCE_NOT_FOUND
            : toolError.code === 'INVALID_ARGUMENT'
              ? ErrorCode.InvalidParams
              : ErrorCode.InternalError;
        throw new McpError(code, toolError.message, { code: toolError.code });
      }
    },
  );
}
