import { Counter, type Registry } from 'prom-client';
import type { ToolObserver } from './tools/call-tool';

const CALLER_CALLS = 'gitdex_reader_caller_calls_total';

/** Callers counted one by one: past it, new names count only toward "other", so memory stays bounded too. */
const TRACKED_PER_LABEL = 20;

/** Named callers when not configured (GITDEX_METRICS_CALLERS). */
export const DEFAULT_CALLER_LABELS = 50;

/**
 * Tool calls per caller (the token's name, or "anonymous") in `registry`, with a bounded label
 * set: at each scrape the `top` callers with the most calls are named and every other caller is
 * summed under caller="other", so 1,000 callers still make top + 1 series. A caller that enters
 * the top moves its count out of "other", which Prometheus reads as a counter reset there.
 */
export function callerMetrics(registry: Registry, top: number): ToolObserver {
  const existing = observers.get(registry);
  if (existing) return existing;
  const counts = new Map<string, number>();
  let untracked = 0;
  const maxTracked = Math.max(top, 1) * TRACKED_PER_LABEL;
  new Counter({
    name: CALLER_CALLS,
    help: `Reader tool calls by caller: the ${top} callers with the most calls by name, the rest as "other".`,
    labelNames: ['caller'],
    registers: [registry],
    collect(this: Counter<'caller'>) {
      this.reset();
      const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      for (const [caller, n] of ranked.slice(0, top)) this.inc({ caller }, n);
      const other = untracked + ranked.slice(top).reduce((sum, [, n]) => sum + n, 0);
      if (other > 0) this.inc({ caller: 'other' }, other);
    },
  });
  const observe: ToolObserver = ({ principal }) => {
    const caller = principal ? principal.id : 'anonymous';
    const known = counts.get(caller);
    if (known !== undefined) counts.set(caller, known + 1);
    else if (counts.size < maxTracked) counts.set(caller, 1);
    else untracked += 1;
  };
  observers.set(registry, observe);
  return observe;
}

/** One count per registry, however many routers (MCP and REST, one app) report into it. */
const observers = new WeakMap<Registry, ToolObserver>();
