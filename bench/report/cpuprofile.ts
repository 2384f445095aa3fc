import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a V8 .cpuprofile (node --cpu-prof) the summary needs. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

function frameName(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const where = frame.url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/(libs|services)\//, '$1/')
    .replace(/^node:internal\//, 'node:');
  return `${frame.functionName || '(anonymous)'}${where ? ` ${where}:${frame.lineNumber + 1}` : ''}`;
}

/** Self time per function (ms), most first: where the process spent its CPU. */
export function selfTimes(profile: CpuProfile): { name: string; ms: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const name = frameName(node.callFrame);
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals.entries()].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

/** One line per profile in `dir`: the total and the top functions by self time. */
export function summarizeProfiles(dir: string, top = 12): string[] {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const times = selfTimes(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
    const total = times.reduce((sum, t) => sum + t.ms, 0);
    const busy = times.filter((t) => t.name !== '(idle)').reduce((sum, t) => sum + t.ms, 0);
    const list = times
      .filter((t) => t.name !== '(idle)')
      .slice(0, top)
      .map((t) => `${t.name} ${(t.ms / 1000).toFixed(1)} s (${((100 * t.ms) / Math.max(1, busy)).toFixed(0)} %)`)
      .join('; ');
    return `${file}: ${(total / 1000).toFixed(1)} s profiled, ${(busy / 1000).toFixed(1)} s busy; by self time: ${list}`;
  });
}
