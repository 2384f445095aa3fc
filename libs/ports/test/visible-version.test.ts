import type { FileDocument } from '@gitdex/contracts';
import { visibleVersion } from '@gitdex/ports';

/** Only the fields the rule reads matter; the rest make it a document. */
function version(fromGeneration: number, retiredAtGeneration?: number): FileDocument {
  return {
    repositoryId: 1,
    ref: 'refs/heads/main',
    path: 'a.ts',
    fromGeneration,
    ...(retiredAtGeneration !== undefined ? { retiredAtGeneration } : {}),
  } as FileDocument;
}

describe('visibleVersion: the version getFile answers, picked from the newest versions fetched', () => {
  const all = { since: 0, limit: 3 };

  it('picks the newest version visible at the generation', () => {
    const versions = [version(5), version(3, 5), version(1, 3)];
    expect(visibleVersion(versions, 5, all)).toBe(versions[0]);
    expect(visibleVersion(versions, 6, all)).toBe(versions[0]);
    expect(visibleVersion(versions, 4, all)).toBe(versions[1]);
    expect(visibleVersion(versions, 3, all)).toBe(versions[1]);
    expect(visibleVersion(versions, 2, all)).toBe(versions[2]);
  });

  it('skips a version of a newer generation still being indexed', () => {
    const versions = [version(7), version(4)];
    expect(visibleVersion(versions, 6, all)).toBe(versions[1]);
  });

  it('a version retired at the generation is not visible at it', () => {
    expect(visibleVersion([version(2, 4)], 4, all)).toBeNull();
    expect(visibleVersion([version(2, 4)], 3, all)?.fromGeneration).toBe(2);
  });

  it('answers "no file" when every version was fetched and none is visible', () => {
    expect(visibleVersion([], 3, all)).toBeNull();
    expect(visibleVersion([version(4)], 3, all)).toBeNull();
  });

  it('does not decide when all it fetched are hidden and older versions may exist', () => {
    const versions = [version(9), version(8), version(7)];
    expect(visibleVersion(versions, 6, all)).toBeUndefined();
    expect(visibleVersion(versions, 8, all)).toBe(versions[1]);
  });

  it('does not decide below `since`: versions retired by then were left out', () => {
    const fetched = [version(5)];
    expect(visibleVersion(fetched, 4, { since: 5, limit: 3 })).toBeUndefined();
    expect(visibleVersion(fetched, 5, { since: 5, limit: 3 })).toBe(fetched[0]);
    expect(visibleVersion([], 6, { since: 5, limit: 3 })).toBeNull();
  });

  it('decides nothing when nothing was asked for', () => {
    expect(visibleVersion([], 1, { since: 0, limit: 0 })).toBeUndefined();
  });
});
