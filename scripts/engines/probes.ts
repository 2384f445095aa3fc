// Is an engine serving? Kafka through kafkajs's admin client (a real Metadata round trip that
// reports the brokers and the controller); Elasticsearch through its cluster-health API.
import http from 'node:http';
import { Kafka, logLevel } from 'kafkajs';

export interface KafkaClusterInfo {
  brokers: { nodeId: number; host: string; port: number }[];
  controller: number | null;
  clusterId: string;
}

/** The brokers and controller the cluster reports; rejects while no broker of the list serves. */
export async function kafkaClusterInfo(brokers: string[], timeoutMs = 3000): Promise<KafkaClusterInfo> {
  const admin = new Kafka({
    clientId: 'gitdex-engines-probe',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: Math.min(timeoutMs, 1500),
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return { brokers: cluster.brokers, controller: cluster.controller, clusterId: cluster.clusterId };
  } finally {
    // The probe's answer stands whether or not its connection closes cleanly; a probe has no log to tell.
    await admin.disconnect().catch(() => undefined);
  }
}

/** Serving with at least `brokers` brokers registered and a controller elected. */
export async function kafkaHealthy(bootstrap: string[], brokers = 1): Promise<boolean> {
  try {
    const info = await kafkaClusterInfo(bootstrap);
    return info.brokers.length >= brokers && info.controller !== null && info.controller >= 0;
  } catch {
    return false;
  }
}

export function httpGetJson(url: string, timeoutMs = 3000): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** Yellow or green, with at least `nodes` nodes in the cluster. */
export async function elasticsearchHealthy(port: number, nodes = 1): Promise<boolean> {
  try {
    const res = await httpGetJson(`http://127.0.0.1:${port}/_cluster/health?wait_for_status=yellow&wait_for_nodes=>=${nodes}&timeout=2s`, 4000);
    const body = res.body as { status?: string; number_of_nodes?: number };
    return res.status === 200 && (body.status === 'yellow' || body.status === 'green') && (body.number_of_nodes ?? 0) >= nodes;
  } catch {
    return false;
  }
}
