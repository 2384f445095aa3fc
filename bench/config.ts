/** How much each suite does: quick (CI smoke, a few minutes) or full. */
export interface BenchConfig {
  mode: 'quick' | 'full';
  /** Files of the large repository. */
  largeFiles: number;
  /** Full indexes of each repository (copies under new names: each is a first index). */
  indexRepeats: { small: number; medium: number; large: number };
  /** One-file pushes to the small and the large repository, alternating. */
  onePushRepeats: number;
  freshness: {
    /** Repositories the pushes go to. */
    repositories: number;
    idleSamples: number;
    /** The sustained stream: pushes per second for this many seconds (open loop). */
    streamRate: number;
    streamSeconds: number;
    pollMs: number;
  };
  /** Warm reads: repeats of the same calls; cold reads: distinct files and folders per pass (stdio, HTTP), each touched once. */
  reads: { warmup: number; samples: number; coldFiles: number };
  load: { levels: number[]; seconds: number };
  suggest: { perKind: number; seed: number };
  /** search_code, ripgrep and git grep: timed calls per query case, after a few untimed ones. */
  search: { warmup: number; samples: number };
}

export function benchConfig(mode: 'quick' | 'full'): BenchConfig {
  if (mode === 'quick') {
    // A smoke run: every suite and the report's code path, in as few samples as still run them
    // (CI's whole run must stay within 45 minutes). Its figures are not results.
    return {
      mode,
      largeFiles: 2_000,
      indexRepeats: { small: 1, medium: 1, large: 1 },
      onePushRepeats: 3,
      freshness: { repositories: 4, idleSamples: 8, streamRate: 2, streamSeconds: 5, pollMs: 20 },
      reads: { warmup: 5, samples: 20, coldFiles: 30 },
      load: { levels: [1, 8, 32], seconds: 2 },
      suggest: { perKind: 4, seed: 7 },
      search: { warmup: 1, samples: 5 },
    };
  }
  return {
    mode,
    largeFiles: 55_000,
    // Three of the large repository: the engine sometimes merges half a gigabyte during one of
    // the timed writes (a raw bulk took 19.7 s against 15.8 s in the same run on 2026-12-04), and
    // the median of three stands when one run meets it.
    indexRepeats: { small: 5, medium: 3, large: 3 },
    onePushRepeats: 15,
    freshness: { repositories: 24, idleSamples: 100, streamRate: 3, streamSeconds: 60, pollMs: 20 },
    // 100 distinct files per transport and up to 4 fresh readers for the listings: `--only=reads,suggest` in about 5 minutes.
    reads: { warmup: 20, samples: 300, coldFiles: 100 },
    load: { levels: [1, 8, 32, 128], seconds: 12 },
    suggest: { perKind: 30, seed: 7 },
    // A common literal on the large corpus takes about a second a call in each of the three tools.
    search: { warmup: 5, samples: 60 },
  };
}
