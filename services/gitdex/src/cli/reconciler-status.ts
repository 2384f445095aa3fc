import type { Env } from '@gitdex/contracts';

/** The reconciler as the running indexer reports it on /readyz (the CLI is a separate process). */
export interface ReconcilerView {
  /** ok, failed, late, running (no pass finished yet), off (no reconciler in that process) or unknown (no answer). */
  state: 'ok' | 'failed' | 'late' | 'running' | 'off' | 'unknown';
  line: string;
  status: Record<string, unknown> | null;
}

/** Where `gitdex status` asks by default: the server this configuration starts (0.0.0.0 and :: are reached on loopback). */
export function defaultServerUrl(env: Pick<Env, 'HOST' | 'PORT'>): string {
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT}`;
}

/**
 * Reads the reconciler's note from `server`/readyz. The pass state lives in the indexer's
 * memory, so an indexer that does not answer is said as such, never guessed.
 */
export async function reconcilerView(server: string, timeoutMs = 3000): Promise<ReconcilerView> {
  const url = `${server.replace(/\/$/, '')}/readyz`;
  let body: { notes?: { reconciler?: Record<string, unknown> } };
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    body = (await response.json()) as typeof body;
  } catch (error) {
    return { state: 'unknown', line: `unknown: no answer from ${url} (${error instanceof Error ? error.message : String(error)}); pass --server with the indexer's address`, status: null };
  }
  const status = body.notes?.reconciler;
  if (!status) return { state: 'off', line: `off in the gitdex at ${server} (no indexer role there, or GITDEX_RECONCILE_INTERVAL_SECONDS=0)`, status: null };
  const lastSuccess = typeof status.lastSuccessAt === 'string' ? status.lastSuccessAt : null;
  if (typeof status.lastError === 'string') return { state: 'failed', line: `FAILED: ${String(status.degraded)}`, status };
  if (status.late === true) return { state: 'late', line: `LATE: ${String(status.degraded)}`, status };
  if (!lastSuccess) return { state: 'running', line: 'first pass under way', status };
  return { state: 'ok', line: `ok, last pass ${lastSuccess} (${String(status.lastDurationSeconds)} s), every ${String(status.intervalSeconds)} s`, status };
}
