// Ports for the private cluster's nodes: a fixed layout from a base port, every one checked free,
// or free ports chosen by the system (moved out of cluster.ts unchanged).
import { ephemeralPort, portFree } from './ports.ts';

/** `count` ports from `base` (all must be free: a fixed layout never moves silently), or any free ones. */
export async function portsFrom(base: number, count: number, taken: Set<number>): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < count; i += 1) {
    let port = base > 0 ? base + i : await ephemeralPort();
    while (base === 0 && taken.has(port)) port = await ephemeralPort();
    if (base > 0 && (taken.has(port) || !(await portFree(port)))) {
      throw new Error(`port ${port} is taken: stop what uses it, or choose other cluster ports (ENGINES_CLUSTER_KAFKA_PORT / ENGINES_CLUSTER_ELASTICSEARCH_PORT)`);
    }
    taken.add(port);
    ports.push(port);
  }
  return ports;
}
