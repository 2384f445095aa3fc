// Ports for the private cluster's nodes: a fixed layout from a base port, every one checked free,
// or free ports chosen by the system (moved out of cluster.ts unchanged).
import net from 'node:net';

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

function ephemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

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
