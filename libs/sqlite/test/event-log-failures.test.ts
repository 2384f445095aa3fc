import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitdexEvent } from '@gitdex/contracts';
import type { EventEnvelope } from '@gitdex/ports';
import { SqliteEventLog } from '../src/event-log/sqlite-event-log';
import { recordingLog } from '../../../test/support/recording-log';

const push = (repositoryId: number, n: number): GitdexEvent => ({
  kind: 'push',
  eventId: `e-${repositoryId}-${n}`,
  repository: { id: repositoryId, fullName: `log/r${repositoryId}` },
  receivedAt: new Date(0).toISOString(),
  ref: 'refs/heads/main',
  before: '0'.repeat(40),
  after: n.toString(16).padStart(40, '0'),
  created: false,
  deleted: false,
  forced: false,
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('embedded event log: failures leave a trace and never stall it', () => {
  let dir: string;
  // A started log polls until closed: closed after each test even when it failed, or jest would never exit.
  const open: SqliteEventLog[] = [];
  const opened = (eventLog: SqliteEventLog) => (open.push(eventLog), eventLog);
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gitdex-eventlog-'))));
  afterEach(async () => {
    for (const eventLog of open.splice(0)) await eventLog.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a row that is not an event goes to the dead letters with its reason; the events around it are handled', async () => {
    const file = join(dir, 'events.sqlite');
    const log = recordingLog();
    const eventLog = opened(new SqliteEventLog({ file, log, retryDelayMs: 20 }));
    await eventLog.publish([{ event: push(7, 1) }]);
    // A row written by something else (an older build, a hand edit): the log must survive it.
    const other = new Database(file);
    other.prepare('INSERT INTO event_log (partition_key, payload, headers, enqueued_at) VALUES (?, ?, ?, ?)').run('7', '{"kind":"push","broken":true}', '{}', Date.now());
    other.close();
    await eventLog.publish([{ event: push(7, 2) }]);

    const handled: string[] = [];
    await eventLog.start(async (batch: EventEnvelope[]) => {
      for (const envelope of batch) handled.push(envelope.event.eventId);
    });
    await until(() => handled.length === 2, 'both valid events');
    await until(() => log.lines.some((l) => l.level === 'error'), 'the error line');
    const letters = await eventLog.deadLetters().list(10);
    expect(handled).toEqual(['e-7-1', 'e-7-2']);
    expect(letters).toHaveLength(1);
    expect(letters[0]!.letter.raw).toBe('{"kind":"push","broken":true}');
    expect(letters[0]!.letter.reason).toMatch(/^malformed event-log row \d+: /);
    expect(log.lines.find((l) => l.level === 'error')?.message).toMatch(/malformed event-log row/);
    for (let waited = 0; (await eventLog.lag()) > 0 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await eventLog.lag()).toBe(0);
    await eventLog.close();
  });

  test('a handler that throws is logged and its batch offered again', async () => {
    const log = recordingLog();
    const eventLog = opened(new SqliteEventLog({ file: join(dir, 'events.sqlite'), log, retryDelayMs: 20 }));
    await eventLog.publish([{ event: push(8, 1) }]);
    let attempts = 0;
    await eventLog.start(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('index unavailable');
    });
    await until(() => attempts >= 2, 'the second attempt');
    const warning = log.lines.find((l) => l.level === 'warn');
    expect(warning?.message).toMatch(/a batch failed/);
    expect(warning?.context).toMatchObject({ error: 'index unavailable', partitionKey: '8', events: 1 });
    await eventLog.close();
  });
});
