import { Counter, Histogram, type Registry } from 'prom-client';
import type { ToolObserver } from './tools/call-tool';

const CALLS = 'gitdex_reader_tool_calls_total';
const DURATION = 'gitdex_reader_tool_duration_seconds';

/**
 * Tool call metrics in the given registry: calls by tool, transport and outcome ("ok" or
 * the error code), and latency by tool and transport. Registering twice in one registry
 * (MCP and REST routers in one app) reuses the same metrics.
 */
export function readerMetrics(registry: Registry): ToolObserver {
  const calls =
    (registry.getSingleMetric(CALLS) as Counter<'tool' | 'transport' | 'outcome'> | undefined) ??
    new Counter({ name: CALLS, help: 'Reader tool calls by tool, transport and outcome (ok or the error code).', labelNames: ['tool', 'transport', 'outcome'], registers: [registry] });
  const duration =
    (registry.getSingleMetric(DURATION) as Histogram<'tool' | 'transport'> | undefined) ??
    new Histogram({
      name: DURATION,
      help: 'Reader tool call latency in seconds.',
      labelNames: ['tool', 'transport'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  return ({ tool, transport, outcome, seconds }) => {
    calls.inc({ tool, transport, outcome });
    duration.observe({ tool, transport }, seconds);
  };
}
