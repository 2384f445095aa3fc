import examples from '@octokit/webhooks-examples';
import { GitdexEventSchema } from '@gitdex/contracts';
import { normalizeDelivery, PayloadError } from '../src/normalize';

const receivedAt = '2026-11-30T10:00:00.000Z';
type Example = { name: string; examples: Record<string, unknown>[] };
const byName = (name: string) => (examples as unknown as Example[]).find((e) => e.name === name)?.examples ?? [];

function normalize(event: string, payload: unknown) {
  return normalizeDelivery({ event, deliveryId: 'd-1', payload, receivedAt });
}

describe('normalizeDelivery with every relevant example payload GitHub documents', () => {
  it.each(byName('push').map((p, i) => [i, p] as const))('push example %i becomes one valid push event', (_i, payload) => {
    const result = normalize('push', payload);
    expect(result.outcome).toBe('events');
    if (result.outcome !== 'events') return;
    expect(result.events).toHaveLength(1);
    const event = GitdexEventSchema.parse(result.events[0]);
    const p = payload as { ref: string; after: string; repository: { id: number; full_name: string } };
    expect(event).toMatchObject({ kind: 'push', eventId: 'd-1', ref: p.ref, after: p.after, repository: { id: p.repository.id, fullName: p.repository.full_name } });
  });

  it("carries the newest commit ids of a push (read your own push), at most the contract's number", () => {
    const payload = structuredClone(byName('push')[0]) as { commits?: { id: string }[] };
    const ids = Array.from({ length: 70 }, (_, i) => i.toString(16).padStart(40, 'a'));
    payload.commits = ids.map((id) => ({ id, message: 'm' }) as { id: string });
    const result = normalize('push', payload);
    if (result.outcome !== 'events') throw new Error('expected events');
    const event = GitdexEventSchema.parse(result.events[0]);
    expect(event.kind === 'push' && event.commits).toEqual(ids.slice(-64));
  });

  it.each(byName('create').map((p, i) => [i, p] as const))('create example %i: branches and tags are backfilled', (_i, payload) => {
    const result = normalize('create', payload);
    const { ref_type: refType, ref } = payload as { ref_type: string; ref: string };
    if (refType === 'branch') {
      expect(result).toMatchObject({ outcome: 'events', events: [{ kind: 'backfill', reason: 'branch_created' }] });
    } else if (refType === 'tag') {
      expect(result).toMatchObject({ outcome: 'events', events: [{ kind: 'backfill', reason: 'tag_created', ref: `refs/tags/${ref}` }] });
    } else {
      expect(result.outcome).toBe('ignored');
    }
  });

  it.each(byName('delete').map((p, i) => [i, p] as const))('delete example %i: branches and tags are purged after a check', (_i, payload) => {
    const result = normalize('delete', payload);
    const { ref_type: refType, ref } = payload as { ref_type: string; ref: string };
    if (refType === 'branch') {
      expect(result).toMatchObject({ outcome: 'events', events: [{ kind: 'purge', reason: 'branch_deleted', ref: `refs/heads/${ref}` }] });
    } else if (refType === 'tag') {
      expect(result).toMatchObject({ outcome: 'events', events: [{ kind: 'purge', reason: 'tag_deleted', ref: `refs/tags/${ref}` }] });
    } else {
      expect(result.outcome).toBe('ignored');
    }
  });

  it.each(byName('repository').map((p) => [(p as { action: string }).action, p] as const))('repository %s example', (action, payload) => {
    const result = normalize('repository', payload);
    expect(result.outcome).toBe('events');
    if (result.outcome !== 'events') return;
    const [event] = result.events;
    GitdexEventSchema.parse(event);
    if (action === 'deleted') expect(event).toMatchObject({ kind: 'purge', reason: 'repository_deleted' });
    else if (action === 'created') expect(event).toMatchObject({ kind: 'backfill' });
    else expect(event).toMatchObject({ kind: 'repository_changed', action });
    if (action === 'renamed') expect(event).toHaveProperty('previousFullName');
    if (action === 'transferred') expect(event).toHaveProperty('previousFullName');
  });

  it.each(byName('installation').map((p) => [(p as { action: string }).action, p] as const))('installation %s example', (action, payload) => {
    const result = normalize('installation', payload);
    const repositories = ((payload as { repositories?: unknown[] }).repositories ?? []).length;
    if (action === 'created') expect(result).toMatchObject({ outcome: 'events', events: expect.arrayContaining([]) });
    if (result.outcome === 'events') {
      expect(result.events).toHaveLength(repositories);
      result.events.forEach((e) => GitdexEventSchema.parse(e));
      const ids = result.events.map((e) => e.eventId);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it.each(byName('installation_repositories').map((p, i) => [i, p] as const))('installation_repositories example %i: added are backfilled, removed purged', (_i, payload) => {
    const result = normalize('installation_repositories', payload);
    const p = payload as { repositories_added: unknown[]; repositories_removed: unknown[] };
    expect(result.outcome).toBe('events');
    if (result.outcome !== 'events') return;
    expect(result.events.filter((e) => e.kind === 'backfill')).toHaveLength(p.repositories_added.length);
    expect(result.events.filter((e) => e.kind === 'purge')).toHaveLength(p.repositories_removed.length);
  });

  it.each(byName('pull_request').map((p, i) => [`${i} ${(p as { action: string }).action}`, p] as const))(
    'pull_request example %s: head-moving actions become events, others are ignored',
    (_name, payload) => {
      const p = payload as { action: string; number: number; pull_request: { head: { sha: string }; base: { ref: string } } };
      const result = normalize('pull_request', payload);
      if (!['opened', 'reopened', 'synchronize', 'closed'].includes(p.action)) {
        expect(result).toMatchObject({ outcome: 'ignored', reason: `pull_request ${p.action}` });
        return;
      }
      expect(result.outcome).toBe('events');
      if (result.outcome !== 'events') return;
      const event = GitdexEventSchema.parse(result.events[0]);
      expect(event).toMatchObject({ kind: 'pull_request', action: p.action, pull: { number: p.number, headSha: p.pull_request.head.sha, baseRef: p.pull_request.base.ref } });
    },
  );

  it('admits pull_request edited only when the base branch changed', () => {
    const opened = byName('pull_request').find((p) => (p as { action: string }).action === 'opened')!;
    expect(normalize('pull_request', { ...opened, action: 'edited', changes: { title: { from: 'old' } } })).toMatchObject({ outcome: 'ignored' });
    expect(normalize('pull_request', { ...opened, action: 'edited', changes: { base: { ref: { from: 'develop' }, sha: { from: 'a'.repeat(40) } } } })).toMatchObject({
      outcome: 'events',
      events: [{ kind: 'pull_request', action: 'edited' }],
    });
  });

  it('names the missing field of an incomplete pull_request', () => {
    const payload = structuredClone(byName('pull_request').find((p) => (p as { action: string }).action === 'synchronize')) as { pull_request: { head: Record<string, unknown> } };
    delete payload.pull_request.head.sha;
    expect(() => normalize('pull_request', payload)).toThrow(expect.objectContaining({ field: 'pull_request.head.sha' }));
  });

  it('answers ping and ignores events gitdex does not use', () => {
    expect(normalize('ping', byName('ping')[0]).outcome).toBe('ping');
    expect(normalize('issues', byName('issues')[0])).toMatchObject({ outcome: 'ignored' });
  });

  it('names the missing field of an incomplete push', () => {
    const payload = structuredClone(byName('push')[0]) as { repository: Record<string, unknown> };
    delete payload.repository.id;
    expect(() => normalize('push', payload)).toThrow(PayloadError);
    try {
      normalize('push', payload);
    } catch (error) {
      expect((error as PayloadError).field).toBe('repository.id');
    }
  });

  it('refuses a payload that is not an object', () => {
    expect(() => normalize('push', [])).toThrow(PayloadError);
    expect(() => normalize('push', null)).toThrow(PayloadError);
  });
});
