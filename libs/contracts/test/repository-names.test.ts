import { BackfillEventSchema, isRepositoryName, parsePublishedSites, repositoryNameProblem } from '../src';

describe('repository names as GitHub allows them', () => {
  test.each(['octo/api', 'Octo-Org/API.js', 'a/b', 'a-b-c/.github', 'x/..x', 'x/a..b', 'x/_', 'user-/legacy', `${'a'.repeat(39)}/${'r'.repeat(100)}`])('%s is a name', (name) => {
    expect(repositoryNameProblem(name)).toBeNull();
  });

  test.each([
    ['../user', /owner/],
    ['./user', /owner/],
    ['octo/..', /"\.\." is not a repository name/],
    ['octo/.', /"\." is not a repository name/],
    ['../rate_limit/x', /one "\/"/],
    ['octo', /one "\/"/],
    ['octo/a/b', /one "\/"/],
    ['/octo', /owner is empty/],
    ['octo/', /name is empty/],
    ['-octo/api', /owner/],
    ['oc--to/api', /single hyphens/],
    ['oc_to/api', /owner/],
    ['octo/a b', /repository name/],
    ['octo/a%2e', /repository name/],
    ['octo/ä', /repository name/],
    [`${'a'.repeat(40)}/r`, /at most 39/],
    [`a/${'r'.repeat(101)}`, /at most 100/],
  ])('%s is refused: %s', (name, message) => {
    expect(repositoryNameProblem(name)).toMatch(message);
    expect(isRepositoryName(name)).toBe(false);
  });

  test('an event naming ".." is not an event, nor is a published site of one', () => {
    const event = { kind: 'backfill', eventId: 'e', repository: { id: 1, fullName: '../user' }, receivedAt: '2025-01-01T00:00:00.000Z', reason: 'cli' };
    expect(BackfillEventSchema.safeParse(event).success).toBe(false);
    expect(BackfillEventSchema.safeParse({ ...event, repository: { id: 1, fullName: 'octo/user' } }).success).toBe(true);
    expect(parsePublishedSites('https://docs.example.com/{p}=../user:{p}.md').problems[0]).toMatch(/entry 1: the repository is not a GitHub owner\/name/);
    expect(parsePublishedSites('https://docs.example.com/{p}=octo/..:{p}.md').sites).toEqual([]);
  });
});
