import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteHistory } from '@gitdex/sqlite';
import { describeHistoryStoreConformance } from '../../../test/conformance/history-store.cases';

const dir = mkdtempSync(join(tmpdir(), 'gitdex-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeHistoryStoreConformance('SQLite', async () => new SqliteHistory({ file: join(dir, 'history.sqlite') }));
