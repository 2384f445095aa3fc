import { mkdirSync, statSync } from 'node:fs';
import type { Log } from '@gitdex/observability';

/** Owner only: the embedded stores hold indexed content of private repositories. */
export const DATA_DIR_MODE = 0o700;

/**
 * Makes the embedded data directory (GITDEX_DATA_DIR) with mode 0700, parents included.
 * A directory that already exists is left as it is (an operator may share it on purpose,
 * e.g. a volume with a group for backups), but one that its group or others may read or
 * enter is told in a warning naming the path and the mode, so the choice is a decision.
 */
export function prepareDataDir(dir: string, log: Log): void {
  const created = mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
  if (created !== undefined) return;
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    log.warn(
      { dataDir: dir, mode: `0${mode.toString(8)}` },
      'GITDEX_DATA_DIR is readable by other users: it holds indexed content of private repositories; run chmod 700 on it unless that is on purpose',
    );
  }
}
