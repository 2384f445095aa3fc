import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parsePublishedSites, type ReadFileOutput } from '@gitdex/contracts';
import { resolveDeps } from '../../src/deps';
import { seedRepository } from '../support/documents';
import { call, connectInMemory, failed, ok, textOf } from '../support/mcp-client';
import { createWorld, type World } from '../support/world';

const POST = `---
title: "Hello, world"
date: 2025-03-01
tags: [intro, gitdex]
draft: false
---
# Hello

The body.
`;
const DOC = `+++
title = "Install"
tags = ["setup"]
+++
Run it.
`;

describe('documents by their published URL', () => {
  let world: World;
  let client: Client;
  let close: () => Promise<void>;
  const { sites, problems } = parsePublishedSites('https://blog.example.com/posts/{slug}=acme/blog:content/posts/{slug}.md; https://docs.example.com/{page}=acme/blog:docs/{page}.md');

  beforeAll(async () => {
    world = await createWorld('sqlite');
    await seedRepository(world.index, { id: 60, fullName: 'acme/blog', files: { 'content/posts/hello-world.md': POST, 'docs/guide/install.md': DOC, 'README.md': '# blog\n' } });
    ({ client, close } = await connectInMemory(resolveDeps({ ...world.deps, sites })));
  });
  afterAll(async () => close());

  test('the setting parses, and refuses a path name the URL does not give', () => {
    expect(problems).toEqual([]);
    expect(sites).toHaveLength(2);
    expect(parsePublishedSites('https://x.example.com/{a}=o/r:{b}.md').problems[0]).toMatch(/\{b\} is in the path but not in the URL/);
    expect(parsePublishedSites('nonsense').problems[0]).toMatch(/write it as/);
  });

  test('read_file takes a published URL as path, without repository, and strips the front matter into fields', async () => {
    const result = await call(client, 'read_file', { path: 'https://blog.example.com/posts/hello-world/?utm=x' });
    const out = ok<ReadFileOutput>(result);
    expect(out).toMatchObject({
      repository: 'acme/blog',
      path: 'content/posts/hello-world.md',
      published_url: 'https://blog.example.com/posts/hello-world/?utm=x',
      front_matter: { title: 'Hello, world', date: '2025-03-01', tags: ['intro', 'gitdex'], body_start_line: 7 },
      start_line: 7,
      content: '# Hello\n\nThe body.',
    });
    expect(out.front_matter?.fields.draft).toBe('false');
    expect(textOf(result)).toContain('Title: Hello, world');
    const toml = ok<ReadFileOutput>(await call(client, 'read_file', { path: 'https://docs.example.com/guide/install' }));
    expect(toml).toMatchObject({ path: 'docs/guide/install.md', front_matter: { title: 'Install', tags: ['setup'] }, content: 'Run it.' });
  });

  test('an unknown URL answers with the configured sites', async () => {
    const error = failed(await call(client, 'read_file', { path: 'https://elsewhere.example.org/posts/x' }));
    expect(error.text).toContain('https://blog.example.com/posts/{slug} (acme/blog:content/posts/{slug}.md)');
    expect(failed(await call(client, 'read_file', { path: 'README.md' })).text).toMatch(/repository: give the repository/);
  });
});
