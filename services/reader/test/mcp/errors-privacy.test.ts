import type { RepositoriesStateOutput } from '@gitdex/contracts';
import { resolveDeps, type ReaderDeps } from '../../src/deps';
import { faulty, type Fault } from '../support/faults';
import { call, connectInMemory, failed, ok } from '../support/mcp-client';
import { createWorld, type World } from '../support/world';

describe('bad input is refused with what to fix', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });

  test.each<[string, Record<string, unknown>, RegExp]>([
    ['read_file', { repository: 'octo/api', path: 'README.md', start_line: -3 }, /start_line: a whole line number, 1 or more .* \(got -3\)/],
    ['read_file', { repository: 'octo/api', path: 'README.md', start_line: 'ten' }, /start_line: .* \(got "ten"\)/],
    ['read_file', { repository: 'octo/api', path: 'README.md', end_line: 0 }, /end_line: .*\(got 0\)/],
    ['read_file', { repository: 'octo/api', path: 'README.md', start: 3 }, /unknown argument "start": this tool takes repository, path, ref, start_line, end_line/],
    ['read_file', { repository: 'octo/api' }, /path: give the file path/],
    ['read_file', { repository: 42, path: 'x' }, /repository: give the repository as "owner\/name"/],
    ['read_file', { repository: 'octo/api', path: '../etc/passwd' }, /path: "\.\." is not allowed/],
    ['read_file', { repository: 'octo/api', path: 'a\u0000b' }, /path: contains a NUL byte/],
    ['read_file', { repository: 'octo/api', path: 'a/'.repeat(700) }, /path: 1,399 characters; a repository path has at most 1,000/],
    ['read_file', { repository: 'octo/api', path: 'x'.repeat(5000) }, /path: at most 1,000 characters of path/],
    ['read_file', { repository: 'not-a-repo', path: 'x' }, /repository: "not-a-repo" is not "owner\/name"/],
    ['list_files', { repository: 'octo/api', limit: 1e9 }, /limit: a whole number from 1 to 1,000/],
    ['list_files', { repository: 'octo/api', depth: 2.5 }, /depth: .*\(got 2\.5\)/],
    ['suggest_paths', { repository: 'octo/api', query: '' }, /query: give a path, a part of one, or a file name/],
    ['repositories_state', { repositories: 'octo/api' }, /repositories: a list of "owner\/name" strings/],
    ['repositories_state', { repositories: Array.from({ length: 101 }, (_, i) => `o/r${i}`) }, /repositories: at most 100 a call/],
  ])('%s: %#', async (tool, args, message) => {
    const { client, close } = await connectInMemory(world.deps);
    const error = failed(await call(client, tool, args));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.text).toMatch(message);
    await close();
  });

  test('an unknown tool is a tool error naming it (the SDK answers it; tools/list names the tools)', async () => {
    const { client, close } = await connectInMemory(world.deps);
    expect(await call(client, 'write_file', {})).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/Tool write_file not found/) }] });
    await close();
  });
});

describe('an index that fails is answered, never hung on or leaked', () => {
  const withFault = async (fault: Fault, options: Partial<ReaderDeps['limits']> = {}) => {
    const world = await createWorld();
    const errors: object[] = [];
    const deps = resolveDeps({
      index: faulty(world.index, fault),
      limits: { timeoutMs: 300, ...options },
      logger: { info: () => undefined, warn: () => undefined, error: (o) => errors.push(o) },
    });
    return { ...(await connectInMemory(deps)), errors };
  };

  test.each(['read_file', 'list_files', 'repository_overview', 'repositories_state', 'suggest_paths', 'search_code'])('unreachable: %s says retry in a few seconds', async (tool) => {
    const { client, close } = await withFault('unavailable');
    const error = failed(await call(client, tool, argsFor(tool)));
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.text).toBe('The index is unavailable right now (it cannot be reached). Retry in a few seconds.');
    await close();
  });

  test('no answer within the deadline becomes "unavailable", not a hang', async () => {
    // The hang fault never answers: an answer at all is the deadline firing (a hang fails at jest's timeout).
    const { client, close } = await withFault('hang');
    const error = failed(await call(client, 'read_file', { repository: 'octo/api', path: 'README.md' }));
    expect(error.text).toBe('The index is unavailable right now (it did not answer within 300 ms). Retry in a few seconds.');
    await close();
  });

  test('a bug answers with a reference, logs the details and does not show them', async () => {
    const { client, close, errors } = await withFault('bug');
    const error = failed(await call(client, 'list_files', { repository: 'octo/api' }));
    expect(error.code).toBe('INTERNAL');
    expect(error.text).toMatch(/^Internal error in list_files \(reference [0-9a-f]{8}\); it was logged\./);
    expect(error.text).not.toMatch(/secretInternalDetail/);
    expect(JSON.stringify(errors)).toMatch(/reference/);
    await close();
  });
});

function argsFor(tool: string): Record<string, unknown> {
  switch (tool) {
    case 'read_file':
      return { repository: 'octo/api', path: 'README.md' };
    case 'suggest_paths':
      return { repository: 'octo/api', query: 'readme' };
    case 'repositories_state':
      return {};
    case 'search_code':
      return { query: 'readme' };
    default:
      return { repository: 'octo/api' };
  }
}

describe('a private repository the caller may not read is indistinguishable from none', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });
  const scrub = (text: string) => text.replaceAll('octo/secret', 'NAME').replaceAll('octo/nothing', 'NAME');

  test.each([
    ['read_file', { path: 'secret-plans.md' }],
    ['list_files', {}],
    ['repository_overview', {}],
    ['suggest_paths', { query: 'plans' }],
  ])('%s answers exactly as for a repository that does not exist', async (tool, args) => {
    const { client, close } = await connectInMemory(world.deps);
    const secret = failed(await call(client, tool, { repository: 'octo/secret', ...args }));
    const nothing = failed(await call(client, tool, { repository: 'octo/nothing', ...args }));
    expect(secret.code).toBe('REPOSITORY_NOT_FOUND');
    expect(scrub(secret.text)).toBe(scrub(nothing.text));
    expect(secret.suggestions).toEqual([]);
    await close();
  });

  test('never listed, counted, suggested or hinted at', async () => {
    const { client, close } = await connectInMemory(world.deps);
    const state = ok<RepositoriesStateOutput>(await call(client, 'repositories_state', {}));
    expect(state.repositories.map((r) => r.repository)).not.toContain('octo/secret');
    expect(state.omitted).toBe(0);
    const named = ok<RepositoriesStateOutput>(await call(client, 'repositories_state', { repositories: ['octo/secret', 'octo/nothing'] }));
    expect(scrub(JSON.stringify(named.repositories[0]))).toBe(scrub(JSON.stringify(named.repositories[1])));
    const typo = failed(await call(client, 'read_file', { repository: 'octo/secre', path: 'x' }));
    expect(typo.text).not.toMatch(/secret/);
    const elsewhere = failed(await call(client, 'read_file', { repository: 'octo/api', path: 'secret-plans.md' }));
    expect(elsewhere.text).not.toMatch(/secret\b(?!-plans)/);
    expect(elsewhere.suggestions).not.toContain('octo/secret');
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'explore_repository' }, argument: { name: 'repository', value: 'octo/' } });
    expect(completion.completion.values).not.toContain('octo/secret');
    await expect(client.readResource({ uri: 'gitdex://octo/secret/secret-plans.md' })).rejects.toThrow(/octo\/secret is not indexed: gitdex has never received an event for it/);
    expect(world.publisher.events.map((e) => e.repository.fullName)).not.toContain('octo/secret');
    await close();
  });

  test('the access hook lets a principal read it, and find its paths from elsewhere', async () => {
    const deps = resolveDeps({ index: world.index, access: (repository, principal) => !repository.private || principal?.id === 'alice' });
    const { client, close } = await connectInMemory(deps, { id: 'alice' });
    expect(ok(await call(client, 'read_file', { repository: 'octo/secret', path: 'secret-plans.md' })).content).toBe('# Plans');
    const elsewhere = failed(await call(client, 'read_file', { repository: 'octo/api', path: 'secret-plans.md' }));
    expect(elsewhere.text).toMatch(/secret-plans.md exists in octo\/secret/);
    await close();
  });
});
