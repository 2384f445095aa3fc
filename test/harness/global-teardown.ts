// jest globalTeardown of the "integration" project: stops the engines that global-setup.ts
// started (containers, or local JVMs it launched), unless GITDEX_KEEP_ENGINES=1. Engines that
// were given through the env, or that were already running when the setup looked, are left alone.
import { loadEnginesLib } from './engines';

function say(line: string): void {
  process.stderr.write(`[integration teardown] ${line}\n`);
}

export default async function globalTeardown(): Promise<void> {
  const record = globalThis.__GITDEX_ENGINES__;
  globalThis.__GITDEX_ENGINES__ = undefined;
  if (!record) return;
  const nothingStarted = record.containers.length === 0 && record.startedLocal.length === 0;
  if (nothingStarted) return;
  if (process.env.GITDEX_KEEP_ENGINES === '1') {
    say('GITDEX_KEEP_ENGINES=1: leaving the engines running (`npm run engines:down` stops local ones)');
    return;
  }
  if (record.containers.length > 0) {
    const results = await Promise.allSettled(record.containers.map((c) => c.stop()));
    for (const r of results) if (r.status === 'rejected') say(`a container did not stop: ${String(r.reason)}`);
  }
  if (record.startedLocal.length > 0) {
    const lib = await loadEnginesLib();
    for (const name of record.startedLocal) {
      await lib.stopEngine(name);
    }
  }
}
