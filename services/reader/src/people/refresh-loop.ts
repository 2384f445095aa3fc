import type { PermissionMirror } from './mirror';

export interface RefreshLoopOptions {
  /** How often to look for people due (default a tenth of the refresh period, at least 5 s), so nobody waits much past the period. */
  intervalMs?: number;
  onError?: (error: unknown) => void;
}

/** Runs the mirror's periodic refresh on a timer; returns the stop function. The timer never keeps the process alive. */
export function startPermissionRefresh(mirror: PermissionMirror, options: RefreshLoopOptions = {}): () => void {
  const intervalMs = options.intervalMs ?? Math.max(5_000, (mirror.refreshSeconds * 1000) / 10);
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    mirror
      .refreshDue()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
