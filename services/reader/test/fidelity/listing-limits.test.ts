import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ListFilesOutput, RepositoryOverviewOutput } from '@gitdex/contracts';
import { seedRepository, type FileSpec } from '../support/documents';
import { call, connectInMemory, ok, textOf } from '../support/mcp-client';
import { createWorld, type World } from '../support/world';

describe("listing limits as high as the seeds'", () => {
  let world: World;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    world = await createWorld('sqlite');
    const files: Record<string, FileSpec> = {};
    // 350 root entries, a tree 64 levels deep, and 1,500 short-named files in one folder.
    for (let i = 0; i < 340; i += 1) files[`r${String(i).padStart(3, '0')}.md`] = 'x\n';
    for (let i = 0; i < 1500; i += 1) files[`many/${String(i).padStart(4, '0')}.ts`] = 'x\n';
    const deep = Array.from({ length: 63 }, (_, i) => `d${i}`).join('/');
    files[`${deep}/bottom.txt`] = 'the bottom\n';
    for (let i = 0; i < 8; i += 1) files[`f${i}/x.txt`] = 'x\n';
    await seedRepository(world.index, { id: 50, fullName: 'octo/wide', files });
    ({ client, close } = await connectInMemory(world.deps));
  });
  afterAll(async () => close());

  test('depth 64 reaches a file 64 levels down', async () => {
    const out = ok<ListFilesOutput>(await call(client, 'list_files', { repository: 'octo/wide', folder: 'd0', depth: 64, limit: 1000 }));
    expect(out.entries.some((e) => e.path.endsWith('/d62/bottom.txt'))).toBe(true);
    const shallow = ok<ListFilesOutput>(await call(client, 'list_files', { repository: 'octo/wide', folder: 'd0', depth: 10 }));
    expect(shallow.entries.some((e) => e.path.endsWith('bottom.txt'))).toBe(false);
  });

  test('limit 1,000 holds more than 300 entries a page and pages on exactly within the result budget', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let first = 0;
    do {
      const result = await call(client, 'list_files', { repository: 'octo/wide', folder: 'many', limit: 1000, ...(cursor ? { cursor } : {}) });
      const page: ListFilesOutput = ok<ListFilesOutput>(result);
      expect(textOf(result).length + JSON.stringify(page).length).toBeLessThanOrEqual(60_000);
      if (first === 0) first = page.entries.length;
      seen.push(...page.entries.map((e) => e.path));
      cursor = page.next_cursor;
    } while (cursor);
    expect(first).toBeGreaterThan(300);
    expect(seen).toEqual(Array.from({ length: 1500 }, (_, i) => `many/${String(i).padStart(4, '0')}.ts`));
  });

  test('the overview shows up to 300 root entries and counts the rest', async () => {
    const out = ok<RepositoryOverviewOutput>(await call(client, 'repository_overview', { repository: 'octo/wide' }));
    // 10 folders (many, d0, f0..f7) and 340 files at the root.
    expect(out.top_level).toHaveLength(300);
    expect(out.top_level_omitted).toBe(350 - 300);
  });
});
