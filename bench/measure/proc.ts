import { readFileSync } from 'node:fs';

/** Resident memory of a Linux process from /proc/<pid>/status, in MiB. */
export interface Memory {
  /** VmRSS: resident now. */
  rssMb: number;
  /** VmHWM: the peak resident size over the process's life. */
  hwmMb: number;
}

export function parseStatus(text: string): Memory | null {
  const kb = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
    return match ? Number(match[1]) : null;
  };
  const rss = kb('VmRSS');
  const hwm = kb('VmHWM');
  if (rss === null || hwm === null) return null;
  return { rssMb: rss / 1024, hwmMb: hwm / 1024 };
}

export function memoryOf(pid: number): Memory | null {
  try {
    return parseStatus(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return null;
  }
}

/** Samples a process's RSS on a timer; stop() answers the largest RSS seen and the VmHWM then. */
export class RssSampler {
  private maxRss = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 100,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  private sample(): void {
    const memory = memoryOf(this.pid);
    if (memory) this.maxRss = Math.max(this.maxRss, memory.rssMb);
  }

  stop(): { maxRssMb: number; hwmMb: number | null } {
    clearInterval(this.timer);
    this.sample();
    return { maxRssMb: this.maxRss, hwmMb: memoryOf(this.pid)?.hwmMb ?? null };
  }
}
