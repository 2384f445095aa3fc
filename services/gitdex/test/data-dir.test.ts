import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnv } from '@gitdex/contracts';
import type { Log, LogContext } from '@gitdex/observability';
import { createAdapters } from '../src/adapters';

/** Issue 17, item 10: the embedded data directory holds private content, so it is the owner's only. */
describe('GITDEX_DATA_DIR mode', () => {
  let scratch: string;
  const warnings: { context: LogContext; message: string }[] = [];
  const log: Log = { info: () => undefined, warn: (context, message) => warnings.push({ context, message }), error: () => undefined };

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'gitdex-data-dir-'));
    warnings.length = 0;
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  async function start(dataDir: string): Promise<void> {
    const adapters = createAdapters(loadEnv({ GITDEX_DATA_DIR: dataDir }), { log });
    await adapters.close();
  }

  it('creates a missing directory (and its parents) with mode 0700, even under a lax umask', async () => {
    const dataDir = join(scratch, 'parent', 'data');
    const previous = process.umask(0o000);
    try {
      await start(dataDir);
    } finally {
      process.umask(previous);
    }
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(scratch, 'parent')).mode & 0o777).toBe(0o700);
    expect(warnings).toEqual([]);
  });

  it('leaves an existing directory as it is, but warns when others may read it', async () => {
    const dataDir = join(scratch, 'shared');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    await start(dataDir);
    expect(statSync(dataDir).mode & 0o777).toBe(0o755);
    expect(warnings).toEqual([{ context: { dataDir, mode: '0755' }, message: expect.stringMatching(/GITDEX_DATA_DIR is readable by other users.*chmod 700/) }]);
  });

  it('says nothing about an existing private directory', async () => {
    const dataDir = join(scratch, 'private');
    mkdirSync(dataDir, { mode: 0o700 });
    await start(dataDir);
    expect(warnings).toEqual([]);
  });
});
