// Permission deliveries through the webhook core: validated and bounded, handed to the mirror
// (and a `repository` delivery to the event log as well), 503 when the mirror could not store it.
import type { GitdexEvent, PermissionEvent } from '@gitdex/contracts';
import { SqliteEventLog } from '@gitdex/sqlite';
import { receiveDelivery, sign, type WebhookDeps } from '../src';
import { recordingLog } from '../../../test/support/recording-log';

const SECRET = 'permission-secret';
const user = (login: string, id = 501) => ({ id, login });
const repository = { id: 9001, full_name: 'acme/sdk', private: true };

describe('permission deliveries', () => {
  let log: SqliteEventLog;
  const published: GitdexEvent[] = [];
  const applied: PermissionEvent[] = [];
  let failNext = false;

  const deps = (withMirror = true): WebhookDeps => ({
    secrets: [SECRET],
    publisher: {
      publish: async (events) => {
        await log.publish(events);
        published.push(...events.map((e) => e.event));
      },
      ping: () => log.ping(),
      close: () => Promise.resolve(),
    },
    ...(withMirror
      ? {
          permissions: (event: PermissionEvent) => {
            if (failNext) {
              failNext = false;
              return Promise.reject(new Error('store unavailable'));
            }
            applied.push(event);
            return Promise.resolve();
          },
        }
      : {}),
  });
  const deliver = (event: string, payload: unknown, withMirror = true) => {
    const rawBody = Buffer.from(JSON.stringify(payload));
    return receiveDelivery({ headers: { event, deliveryId: `d-${Math.random()}`, signature256: sign(rawBody, SECRET) }, rawBody }, deps(withMirror));
  };

  beforeAll(() => {
    log = new SqliteEventLog({ file: ':memory:', log: recordingLog() });
  });
  afterAll(() => log.close());
  beforeEach(() => {
    published.length = 0;
    applied.length = 0;
  });

  it('hands each permission event to the mirror in its normalised shape', async () => {
    expect((await deliver('member', { action: 'removed', member: user('alice'), repository })).status).toBe(202);
    expect((await deliver('membership', { action: 'removed', scope: 'team', member: user('alice'), team: { slug: 'web' }, organization: { login: 'acme' } })).status).toBe(202);
    expect((await deliver('organization', { action: 'member_removed', membership: { user: user('alice') }, organization: { login: 'acme' } })).status).toBe(202);
    expect((await deliver('team', { action: 'removed_from_repository', team: { slug: 'web' }, repository, organization: { login: 'acme' } })).status).toBe(202);
    expect((await deliver('github_app_authorization', { action: 'revoked', sender: user('alice') })).status).toBe(202);
    expect(applied).toEqual([
      { kind: 'collaborator', action: 'removed', userId: 501, login: 'alice', repositoryId: 9001, fullName: 'acme/sdk' },
      { kind: 'person', source: 'membership', removed: true, userId: 501, login: 'alice', organization: 'acme' },
      { kind: 'person', source: 'organization', removed: true, userId: 501, login: 'alice', organization: 'acme' },
      { kind: 'team', action: 'removed_from_repository', organization: 'acme', repositoryId: 9001 },
      { kind: 'revoked', userId: 501, login: 'alice' },
    ]);
    expect(published).toEqual([]);
  });

  it('a repository delivery reaches the mirror and the event log both', async () => {
    const answer = await deliver('repository', { action: 'privatized', repository: { ...repository, default_branch: 'main' } });
    expect(answer.status).toBe(202);
    expect(applied).toEqual([{ kind: 'repository', action: 'privatized', repositoryId: 9001, fullName: 'acme/sdk', private: true }]);
    expect(published.map((e) => e.kind)).toEqual(['repository_changed']);
  });

  it('refuses what the mirror cannot use with a 400 naming the field, and changes nothing', async () => {
    const tooLong = await deliver('member', { action: 'removed', member: user('a'.repeat(40)), repository });
    expect(tooLong).toMatchObject({ status: 400, body: { error: 'payload_invalid', field: 'member.login' } });
    const noId = await deliver('github_app_authorization', { action: 'revoked', sender: { login: 'alice' } });
    expect(noId).toMatchObject({ status: 400, body: { field: 'sender.id' } });
    expect(applied).toEqual([]);
  });

  it('acknowledges what does not change permissions, and answers 503 when the mirror did not store the change', async () => {
    expect(await deliver('organization', { action: 'member_invited', organization: { login: 'acme' } })).toMatchObject({ status: 202, body: { ignored: 'organization member_invited' } });
    failNext = true;
    expect(await deliver('member', { action: 'removed', member: user('alice'), repository })).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
    // Without a mirror configured, permission events are acknowledged and ignored as before.
    expect(await deliver('member', { action: 'removed', member: user('alice'), repository }, false)).toMatchObject({ status: 202, body: { ignored: 'event member is not used by gitdex' } });
    expect(applied).toEqual([]);
  });
});
