import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type LoggerOptions } from '../src/logger';

/** Logs one line through a logger writing to a file descriptor and returns what reached it. */
async function logOnce(options: Omit<LoggerOptions, 'destination'>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'gitdex-log-'));
  const file = join(dir, 'out.log');
  const fd = openSync(file, 'w');
  try {
    const log = createLogger({ ...options, destination: fd });
    log.info({ url: 'http://127.0.0.1:8080', token: 'hunter2hunter2hunter2' }, 'gitdex ready');
    // JSON lines are written asynchronously: wait until the line is on disk before closing the fd.
    for (let waited = 0; !readFileSync(file, 'utf8').endsWith('\n') && waited < 5_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    return readFileSync(file, 'utf8');
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('log format', () => {
  test('JSON lines when the destination is not a terminal', async () => {
    const line = JSON.parse((await logOnce({})).trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'gitdex ready', url: 'http://127.0.0.1:8080', level: 30 });
  });

  test('readable lines for a person, secrets still redacted', async () => {
    const text = await logOnce({ format: 'pretty' });
    expect(text).toContain('INFO');
    expect(text).toContain('gitdex ready');
    expect(text).not.toContain('hunter2');
    expect(() => JSON.parse(text)).toThrow();
  });

  test('JSON lines redact secrets', async () => {
    const text = await logOnce({ format: 'json' });
    expect(text).not.toContain('hunter2');
    expect(text).toContain('[redacted]');
  });
});
