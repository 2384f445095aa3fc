import { connectInMemory } from '../support/mcp-client';
import { createWorld } from '../support/world';

describe('what the MCP server offers', () => {
  test('twelve read-only, idempotent, closed-world tools with input and output schemas and descriptions that state limits', async () => {
    const world = await createWorld();
    const { client, close } = await connectInMemory(world.deps);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'blame',
      'compare',
      'file_outline',
      'find_references',
      'find_symbol',
      'list_commits',
      'list_files',
      'read_file',
      'repositories_state',
      'repository_overview',
      'search_code',
      'suggest_paths',
    ]);
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false });
      expect(tool.title).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description!.length).toBeGreaterThan(100);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.read_file!.description).toMatch(/400 lines and 16,000 characters/);
    expect(byName.read_file!.description).toMatch(/next_start_line/);
    expect(byName.list_files!.description).toMatch(/at most 1,000/);
    expect(byName.list_files!.description).toMatch(/next_cursor/);
    // repository may be left out when path is a published document's URL.
    expect(byName.read_file!.inputSchema.required).toEqual(['path']);
    expect((byName.read_file!.inputSchema.properties as Record<string, { description?: string }>).start_line!.description).toMatch(/1/);
    expect(byName.read_file!.outputSchema!.properties).toHaveProperty('freshness');
    expect(byName.search_code!.inputSchema.required).toEqual(['query']);
    expect(byName.search_code!.description).toMatch(/RE2/);
    expect(byName.search_code!.outputSchema!.properties).toHaveProperty('next_cursor');
    expect(byName.find_references!.description).toMatch(/Search-based, not compiler-resolved/);
    expect(byName.find_symbol!.inputSchema.required).toEqual(['name']);
    expect(byName.file_outline!.outputSchema!.properties).toHaveProperty('symbols');
    await close();
  });

  test('a resource template for files, and prompts whose arguments complete', async () => {
    const world = await createWorld();
    const { client, close } = await connectInMemory(world.deps);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['gitdex://{owner}/{repo}/{+path}', 'gitdex://{owner}/{repo}']);
    const resource = await client.readResource({ uri: 'gitdex://octo/api/src/index.ts' });
    expect(resource.contents[0]).toMatchObject({ uri: 'gitdex://octo/api/src/index.ts', mimeType: 'text/plain', text: "import { start } from './server/http-server';\n\nstart();\n" });
    await expect(client.readResource({ uri: 'gitdex://octo/api/src/nope.ts' })).rejects.toThrow(/No file src\/nope.ts/);

    const repositories = await client.complete({ ref: { type: 'ref/prompt', name: 'read_path' }, argument: { name: 'repository', value: 'octo/a' } });
    expect(repositories.completion.values).toEqual(['octo/api']);
    const paths = await client.complete({ ref: { type: 'ref/prompt', name: 'read_path' }, argument: { name: 'path', value: 'src/utils/hel' }, context: { arguments: { repository: 'octo/api' } } });
    expect(paths.completion.values[0]).toBe('src/utils/helpers.ts');
    const owners = await client.complete({ ref: { type: 'ref/resource', uri: 'gitdex://{owner}/{repo}/{+path}' }, argument: { name: 'owner', value: 'oc' } });
    expect(owners.completion.values).toEqual(['octo']);
    const repos = await client.complete({ ref: { type: 'ref/resource', uri: 'gitdex://{owner}/{repo}/{+path}' }, argument: { name: 'repo', value: '' }, context: { arguments: { owner: 'octo' } } });
    expect(repos.completion.values).toEqual(expect.arrayContaining(['api', 'web']));
    expect(repos.completion.values).not.toContain('secret');
    const filePaths = await client.complete({
      ref: { type: 'ref/resource', uri: 'gitdex://{owner}/{repo}/{+path}' },
      argument: { name: 'path', value: '' },
      context: { arguments: { owner: 'octo', repo: 'api' } },
    });
    expect(filePaths.completion.values).toEqual(expect.arrayContaining(['src/', 'README.md']));

    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['explore_repository', 'read_path']);
    const prompt = await client.getPrompt({ name: 'read_path', arguments: { repository: 'octo/api', path: 'src/index.ts' } });
    expect(JSON.stringify(prompt.messages)).toContain('src/index.ts of octo/api');
    await close();
  });
});
