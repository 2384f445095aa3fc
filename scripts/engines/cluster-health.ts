// Waiting for the private cluster to answer: every broker registered, every Elasticsearch node
// joined, while watching the nodes being started (a broker that dies during a cold start is
// launched again, twice at most).
import { DEFAULTS, type ClusterOptions, type ClusterState } from './cluster-state.ts';
import { groupMembers } from './processes.ts';
import { elasticsearchHealthy, kafkaHealthy } from './probes.ts';
import { sleep, tail } from './util.ts';

/** A node being started: its log, its process group, and (cold start only) how to launch it again. */
export interface Watched {
  out: string;
  pgid: number;
  relaunch?: () => Promise<number>;
  relaunched?: number;
}

/** Waits until the cluster answers with `kafkaBrokers` brokers / `esNodes` nodes (0: that engine is not waited for). */
export async function waitClusterHealthy(o: ClusterOptions, state: ClusterState, want: { kafkaBrokers: number; esNodes: number }, watched: Watched[]): Promise<void> {
  const deadline = Date.now() + (o.startTimeoutMs ?? DEFAULTS.startTimeoutMs);
  const bootstrap = state.kafka.map((k) => `127.0.0.1:${k.port}`);
  let kafkaOk = want.kafkaBrokers === 0;
  let esOk = want.esNodes === 0;
  while (Date.now() < deadline) {
    if (!kafkaOk) kafkaOk = await kafkaHealthy(bootstrap, want.kafkaBrokers);
    if (!esOk) {
      for (const node of state.elasticsearch) {
        if (await elasticsearchHealthy(node.port, want.esNodes)) {
          esOk = true;
          break;
        }
      }
    }
    if (kafkaOk && esOk) return;
    const dead = watched.find((w) => groupMembers(w.pgid).length === 0);
    // On a saturated machine a broker of a cold cluster may give up waiting for the new quorum
    // ("fatal error while waiting for the controller to acknowledge that we are caught up"):
    // launch it again, twice at most, before calling the start failed.
    if (dead?.relaunch && (dead.relaunched ?? 0) < 2) {
      dead.relaunched = (dead.relaunched ?? 0) + 1;
      o.log(`a node exited during start-up; launching it again (${dead.relaunched}/2); see ${dead.out}`);
      dead.pgid = await dead.relaunch();
      kafkaOk = want.kafkaBrokers === 0; // wait for it to register again
      continue;
    }
    if (dead) throw new Error(`a node exited during start-up; last lines of ${dead.out}:\n${tail(dead.out)}`);
    await sleep(500);
  }
  const logs = watched.map((w) => `--- ${w.out}\n${tail(w.out, 15)}`).join('\n');
  throw new Error(
    `the cluster is not healthy after ${(o.startTimeoutMs ?? DEFAULTS.startTimeoutMs) / 1000}s (Kafka ${kafkaOk ? 'ok' : 'not ready'}, Elasticsearch ${esOk ? 'ok' : 'not ready'}):\n${logs}`,
  );
}
