import {
  ChangesOutputSchema,
  ServedCommitSchema,
  BlameInputSchema,
  BlameOutputSchema,
  CompareInputSchema,
  CompareOutputSchema,
  ErrorBodySchema,
  FileOutlineInputSchema,
  FileOutlineOutputSchema,
  FindReferencesInputSchema,
  FindReferencesOutputSchema,
  FindSymbolInputSchema,
  FindSymbolOutputSchema,
  ListFilesInputSchema,
  ListFilesOutputSchema,
  ReadFileInputSchema,
  ReadFileOutputSchema,
  RepositoriesStateOutputSchema,
  RepositoryOverviewInputSchema,
  RepositoryOverviewOutputSchema,
  SearchCodeInputSchema,
  ListCommitsInputSchema,
  ListCommitsOutputSchema,
  SearchCodeOutputSchema,
  SuggestPathsInputSchema,
  SuggestPathsOutputSchema,
} from '@gitdex/contracts';
import { z } from 'zod';
import { TOOLS } from '../tools/registry';
import { READER_VERSION } from '../version';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>>; required?: string[] };

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const result = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete result.$schema;
  return result;
}

/** Query parameters of a tool's input schema, less those the path carries, some renamed (query → q). */
function queryParameters(schema: z.ZodType, skip: string[], rename: Record<string, string> = {}) {
  const json = jsonSchema(schema, 'input');
  return Object.entries(json.properties ?? {})
    .filter(([name]) => !skip.includes(name))
    .map(([name, property]) => {
      const { description, ...rest } = property;
      return { name: rename[name] ?? name, in: 'query', required: (json.required ?? []).includes(name), description, schema: rest };
    });
}

const ownerRepo = [
  { name: 'owner', in: 'path', required: true, schema: { type: 'string' }, description: 'Repository owner (case-insensitive).' },
  { name: 'repo', in: 'path', required: true, schema: { type: 'string' }, description: 'Repository name (case-insensitive).' },
];

function responses(output: string) {
  const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });
  return {
    '200': { description: 'The answer, as the MCP tool gives it in structuredContent.', content: { 'application/json': { schema: { $ref: `#/components/schemas/${output}` } } } },
    '400': error('INVALID_ARGUMENT: the message says which argument is wrong and what it takes.'),
    '401': error('UNAUTHENTICATED: send a bearer token this gitdex accepts.'),
    '404': error('NOT_FOUND, REPOSITORY_NOT_FOUND or NOT_INDEXED, with suggestions of what was meant.'),
    '410': error('CURSOR_EXPIRED: the listing the cursor continued is gone; start again without cursor.'),
    '503': error('UNAVAILABLE: the index cannot be reached; retry after Retry-After seconds.'),
  };
}

/** GET .../changes (rest/changes-route.ts): JSON, a long poll with wait_ms, or server-sent events. */
function changesPath() {
  const base = responses('ChangesOutput');
  return {
    get: {
      operationId: 'repository_changes',
      summary: 'Commits a repository served',
      description:
        'The commits the refs of a repository started serving after since (a commit, e.g. the cursor of the last answer), oldest first, each with its ref, sha, when its push was received and when it was served, and the paths it changed. JSON answers at once, or with wait_ms waits until there is one (a long poll). With Accept: text/event-stream the answer is a stream of `commit` events (data: a ServedCommit) until the client closes it. An unknown since starts from now.',
      parameters: [
        ...ownerRepo,
        { name: 'since', in: 'query', required: false, schema: { type: 'string', pattern: '^[0-9a-fA-F]{7,40}$' }, description: 'A commit served before; the answer lists what was served after it.' },
        {
          name: 'wait_ms',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 0, maximum: 10_000 },
          description: 'With JSON: wait this long for a change when there is none yet (default 0).',
        },
      ],
      responses: {
        ...base,
        '200': {
          description: 'The changes, as JSON; or, with Accept: text/event-stream, one `commit` event per served commit.',
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/ChangesOutput' } },
            'text/event-stream': { schema: { type: 'string', description: 'Events `commit`, each data a ServedCommit as JSON.' } },
          },
        },
      },
    },
  };
}

let cached: Record<string, unknown> | undefined;

/** OpenAPI 3.1 description of /v1, generated from the same zod schemas as the MCP tools. */
export function openApiDocument(): Record<string, unknown> {
  cached ??= {
    openapi: '3.1.0',
    info: {
      title: 'gitdex reader',
      version: READER_VERSION,
      description:
        'Read and search indexed GitHub repositories: files, folders, overviews, index state, path suggestions, code search and symbols (definitions, file outlines, references). The same operations as the MCP tools of /mcp.',
    },
    paths: {
      '/v1/repositories': {
        get: {
          operationId: 'repositories_state',
          summary: TOOLS.repositories_state.title,
          description: TOOLS.repositories_state.description,
          parameters: [
            {
              name: 'repository',
              in: 'query',
              required: false,
              description: 'Repositories to report on (owner/name), repeated or comma-separated; omitted: every readable one.',
              schema: { type: 'array', items: { type: 'string' } },
              style: 'form',
              explode: true,
            },
          ],
          responses: responses('RepositoriesStateOutput'),
        },
      },
      '/v1/repositories/{owner}/{repo}': {
        get: {
          operationId: 'repository_overview',
          summary: TOOLS.repository_overview.title,
          description: TOOLS.repository_overview.description,
          parameters: [...ownerRepo, ...queryParameters(RepositoryOverviewInputSchema, ['repository'])],
          responses: responses('RepositoryOverviewOutput'),
        },
      },
      '/v1/repositories/{owner}/{repo}/tree': {
        get: {
          operationId: 'list_files',
          summary: TOOLS.list_files.title,
          description: `${TOOLS.list_files.description} The folder may also follow /tree/ in the path.`,
          parameters: [...ownerRepo, ...queryParameters(ListFilesInputSchema, ['repository'])],
          responses: responses('ListFilesOutput'),
        },
      },
      '/v1/repositories/{owner}/{repo}/files/{path}': {
        get: {
          operationId: 'read_file',
          summary: TOOLS.read_file.title,
          description: TOOLS.read_file.description,
          parameters: [
            ...ownerRepo,
            { name: 'path', in: 'path', required: true, schema: { type: 'string' }, description: 'The file path from the repository root; its slashes stay as they are (files/src/index.ts).' },
            ...queryParameters(ReadFileInputSchema, ['repository', 'path']),
          ],
          responses: responses('ReadFileOutput'),
        },
      },
      '/v1/repositories/{owner}/{repo}/suggest': {
        get: {
          operationId: 'suggest_paths',
          summary: TOOLS.suggest_paths.title,
          description: TOOLS.suggest_paths.description,
          parameters: [...ownerRepo, ...queryParameters(SuggestPathsInputSchema, ['repository'], { query: 'q' })],
          responses: responses('SuggestPathsOutput'),
        },
      },
      '/v1/repositories/{owner}/{repo}/changes': changesPath(),
      '/v1/repositories/{owner}/{repo}/compare': {
        get: {
          operationId: 'compare',
          summary: TOOLS.compare.title,
          description: TOOLS.compare.description,
          parameters: [...ownerRepo, ...queryParameters(CompareInputSchema, ['repository'])],
          responses: responses('CompareOutput'),
        },
      },
      '/v1/repositories/{owner}/{repo}/blame/{path}': {
        get: {
          operationId: 'blame',
          summary: TOOLS.blame.title,
          description: TOOLS.blame.description,
          parameters: [
            ...ownerRepo,
            { name: 'path', in: 'path', required: true, schema: { type: 'string' }, description: 'The file path from the repository root (blame/src/index.ts).' },
            ...queryParameters(BlameInputSchema, ['repository', 'path']),
          ],
          responses: responses('BlameOutput'),
        },
      },
      '/v1/search': {
        get: {
          operationId: 'search_code',
          summary: TOOLS.search_code.title,
          description: `${TOOLS.search_code.description} repositories is repeated or comma-separated; refs, path and exclude are repeated for several; regex, case_sensitive and include_generated take true or false.`,
          parameters: queryParameters(SearchCodeInputSchema, [], { query: 'q' }),
          responses: responses('SearchCodeOutput'),
        },
      },
      '/v1/repositories/{owner}/{repo}/commits': {
        get: {
          operationId: 'list_commits',
          summary: TOOLS.list_commits.title,
          description: TOOLS.list_commits.description,
          parameters: [...ownerRepo, ...queryParameters(ListCommitsInputSchema, ['repository'])],
          responses: responses('ListCommitsOutput'),
        },
      },
      '/v1/repositories/{owner}/{repo}/search': {
        get: {
          operationId: 'search_code_in_repository',
          summary: `${TOOLS.search_code.title} in one repository`,
          description: TOOLS.search_code.description,
          parameters: [...ownerRepo, ...queryParameters(SearchCodeInputSchema, ['repository', 'repositories'], { query: 'q' })],
          responses: responses('SearchCodeOutput'),
        },
      },
      '/v1/symbols': {
        get: {
          operationId: 'find_symbol',
          summary: TOOLS.find_symbol.title,
          description: `${TOOLS.find_symbol.description} name may be given as q; repositories is repeated or comma-separated; path is repeated for several globs.`,
          parameters: queryParameters(FindSymbolInputSchema, []),
          responses: responses('FindSymbolOutput'),
        },
      },
      '/v1/repositories/{owner}/{repo}/outline/{path}': {
        get: {
          operationId: 'file_outline',
          summary: TOOLS.file_outline.title,
          description: TOOLS.file_outline.description,
          parameters: [
            ...ownerRepo,
            { name: 'path', in: 'path', required: true, schema: { type: 'string' }, description: 'The file path from the repository root; its slashes stay as they are (outline/src/index.ts).' },
            ...queryParameters(FileOutlineInputSchema, ['repository', 'path']),
          ],
          responses: responses('FileOutlineOutput'),
        },
      },
      '/v1/references': {
        get: {
          operationId: 'find_references',
          summary: TOOLS.find_references.title,
          description: `${TOOLS.find_references.description} name may be given as q; repositories is repeated or comma-separated; path is repeated for several globs.`,
          parameters: queryParameters(FindReferencesInputSchema, []),
          responses: responses('FindReferencesOutput'),
        },
      },
    },
    components: {
      schemas: {
        SearchCodeOutput: jsonSchema(SearchCodeOutputSchema, 'output'),
        ReadFileOutput: jsonSchema(ReadFileOutputSchema, 'output'),
        ListFilesOutput: jsonSchema(ListFilesOutputSchema, 'output'),
        RepositoryOverviewOutput: jsonSchema(RepositoryOverviewOutputSchema, 'output'),
        RepositoriesStateOutput: jsonSchema(RepositoriesStateOutputSchema, 'output'),
        SuggestPathsOutput: jsonSchema(SuggestPathsOutputSchema, 'output'),
        FindSymbolOutput: jsonSchema(FindSymbolOutputSchema, 'output'),
        FileOutlineOutput: jsonSchema(FileOutlineOutputSchema, 'output'),
        FindReferencesOutput: jsonSchema(FindReferencesOutputSchema, 'output'),
        CompareOutput: jsonSchema(CompareOutputSchema, 'output'),
        BlameOutput: jsonSchema(BlameOutputSchema, 'output'),
        ListCommitsOutput: jsonSchema(ListCommitsOutputSchema, 'output'),
        ErrorBody: jsonSchema(ErrorBodySchema, 'output'),
        ChangesOutput: jsonSchema(ChangesOutputSchema, 'output'),
        ServedCommit: jsonSchema(ServedCommitSchema, 'output'),
      },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
  return cached;
}
