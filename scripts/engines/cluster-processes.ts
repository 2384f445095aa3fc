// The private cluster's processes: which process groups are one node's, whether a node runs,
// and stopping every process of a home (also those a crashed `up` left without a state file).
import { esDir, esMark, idOf, kafkaDir, kafkaMark, type ClusterEngine, type ClusterOptions, type ClusterState, type EsNodeState, type KafkaNodeState } from './cluster-state.ts';
import { groupMembers, killGroups, markedProcesses } from './processes.ts';

/** Process groups of one node: its JVMs' and the one recorded at start (the ES launcher), while it holds our files. */
export function nodeGroups(o: ClusterOptions, engine: ClusterEngine, node: KafkaNodeState | EsNodeState): number[] {
  const marks = engine === 'kafka' ? kafkaMark(o, (node as KafkaNodeState).nodeId) : esMark(o, (node as EsNodeState).name);
  const groups = new Set(markedProcesses(marks).map((p) => p.pgid));
  const dir = engine === 'kafka' ? kafkaDir(o, (node as KafkaNodeState).nodeId) : esDir(o, (node as EsNodeState).name);
  if (node.pgid && groupMembers(node.pgid).some((p) => p.cmdline.includes(dir))) groups.add(node.pgid);
  return [...groups].filter((g) => g > 1 && g !== process.pid);
}

export function nodeRunning(o: ClusterOptions, engine: ClusterEngine, node: KafkaNodeState | EsNodeState): boolean {
  const marks = engine === 'kafka' ? kafkaMark(o, (node as KafkaNodeState).nodeId) : esMark(o, (node as EsNodeState).name);
  return markedProcesses(marks).length > 0;
}

export async function stopAll(o: ClusterOptions, state: ClusterState | undefined): Promise<void> {
  // Also whatever carries this home's marks without a state file (a crashed `up`).
  const id = idOf(o.home);
  const groups = new Set(
    markedProcesses([`-Dgitdex.engines.id=${id}`])
      .filter((p) => p.cmdline.includes('-Dgitdex.engine=cluster-'))
      .map((p) => p.pgid),
  );
  for (const node of state?.kafka ?? []) for (const g of nodeGroups(o, 'kafka', node)) groups.add(g);
  for (const node of state?.elasticsearch ?? []) for (const g of nodeGroups(o, 'elasticsearch', node)) groups.add(g);
  await killGroups('the cluster', [...groups], o.log);
}
