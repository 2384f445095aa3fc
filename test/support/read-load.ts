// Reads that keep coming while a fault is injected: a client reading a file of every repository in
// turn through the readers' front, one read at a time, counting the reads that did not answer 200
// and the window in which they happened (first to last failure).
import { setTimeout as sleep } from 'node:timers/promises';

export interface ReadLoadReport {
  reads: number;
  failed: number;
  /** Milliseconds from the first failed read to the end of the last one (0: none failed). */
  failedForMs: number;
  /** Slowest successful read, milliseconds. */
  slowestOkMs: number;
  /** The first few failures: status or error. */
  samples: string[];
}

export interface ReadLoad {
  stop(): Promise<ReadLoadReport>;
}

export function startReadLoad(url: string, repositories: string[], path = 'README.md', pauseMs = 100): ReadLoad {
  let stopped = false;
  const report: ReadLoadReport = { reads: 0, failed: 0, failedForMs: 0, slowestOkMs: 0, samples: [] };
  let firstFailure: number | undefined;
  const loop = (async () => {
    for (let i = 0; !stopped; i += 1) {
      const repository = repositories[i % repositories.length]!;
      const began = Date.now();
      let failure: string | undefined;
      try {
        const answer = await fetch(`${url}/v1/repositories/${repository}/files/${path}`, { signal: AbortSignal.timeout(15_000) });
        const text = await answer.text();
        if (answer.status !== 200) failure = `${answer.status} ${text.slice(0, 120)}`;
      } catch (error) {
        failure = (error as Error).message;
      }
      report.reads += 1;
      if (failure === undefined) {
        report.slowestOkMs = Math.max(report.slowestOkMs, Date.now() - began);
      } else {
        report.failed += 1;
        firstFailure ??= began;
        report.failedForMs = Date.now() - firstFailure;
        if (report.samples.length < 5) report.samples.push(failure);
      }
      await sleep(pauseMs);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return report;
    },
  };
}
