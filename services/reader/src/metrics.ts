import { Counter, Histogram, type Registry } from 'prom-client';
import type { ReadAheadLoad } from './index-layers/read-ahead-load';
import type { ToolObserver } from './tools/call-tool';

const CALLS = 'gitdex_reader_tool_calls_total';
const DURATION = 'gitdex_reader_tool_duration_seconds';
const READS_AHEAD = 'gitdex_reader_reads_ahead_total';
const READ_AHEAD_DURATION = 'gitdex_reader_read_ahead_duration_seconds';

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

/**
 * Loads ahead by kind (a ref's small files, its catalogue of paths, that catalogue's file summaries) and outcome, and how long
 * they took: a catalogue that keeps failing, or loads that take seconds, explain cold reads.
 */
export function readAheadMetrics(registry: Registry): (load: ReadAheadLoad) => void {
  const loads =
    (registry.getSingleMetric(READS_AHEAD) as Counter<'kind' | 'outcome'> | undefined) ??
    new Counter({ name: READS_AHEAD, help: 'Reader loads ahead (small files, path catalogue, its file summaries) by kind and outcome.', labelNames: ['kind', 'outcome'], registers: [registry] });
  const duration =
    (registry.getSingleMetric(READ_AHEAD_DURATION) as Histogram<'kind'> | undefined) ??
    new Histogram({
      name: READ_AHEAD_DURATION,
      help: 'Reader loads ahead in seconds, by kind.',
      labelNames: ['kind'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
  return ({ kind, outcome, seconds }) => {
    loads.inc({ kind, outcome });
    duration.observe({ kind }, seconds);
  };
}
