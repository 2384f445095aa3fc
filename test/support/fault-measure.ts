// measureFault(): one fault injected into a running FaultPipeline while its push stream flows, then
// the checks that nothing acknowledged was lost and that the index equals GitHub, and the row
// recorded (moved out of fault-pipeline.ts unchanged).
import { setTimeout as sleep } from 'node:timers/promises';
import { deadLetterCount } from './fault-kafka';
import { type FaultResult, type FaultResults } from './fault-results';
import { type FaultPipeline } from './fault-pipeline';
import { errorText, type DeliveryLog, type PushStream } from './push-stream';

export interface FaultContext {
  pipeline: FaultPipeline;
  stream: PushStream;
  /** Marks the moment the fault was injected (default: when inject() was called). */
  injected: () => void;
  /**
   * Marks the end of the fault (default: when inject() resolves) and stops the stream: e.g. the
   * moment a killed process is started again, so that its start-up counts as recovery.
   */
  ended: () => void;
  /** Adds a sentence to the row's notes. */
  note: (text: string) => void;
  /** Adds a sentence known later (e.g. an observation running on), awaited before the row is written. */
  noteLater: (text: Promise<string>) => void;
}

export interface FaultSpec {
  fault: string;
  /** How many times inject() injects the fault (for the table); default 1. */
  injections?: number;
  /** Injects the fault while the stream flows; resolves when the fault is over (engine or process back). */
  inject(ctx: FaultContext): Promise<void>;
  /** Pushes before the fault; default 2 s. */
  streamBeforeMs?: number;
  /** How long the index may take to equal GitHub after the fault; default 120 s. */
  recoveryTimeoutMs?: number;
  /** Dead letters the fault is expected to cause; default 0 (every event was indexed, none given up on). */
  deadLetters?: number;
}

/**
 * Runs one fault: starts a push stream, injects the fault, stops the stream when the fault is
 * over, redelivers what was not acknowledged, waits until the index equals GitHub, records the
 * row and asserts: nothing acknowledged lost, everything redelivered, no dead letter beyond
 * what the spec expects, index equals GitHub. Counting the dead letters is part of the check: a
 * count that cannot be read fails the fault, it is never taken as zero.
 */
export async function measureFault(p: FaultPipeline, results: FaultResults, spec: FaultSpec): Promise<FaultResult> {
  const deadBefore = await deadLetterCount(p.brokers);
  const notes: string[] = [];
  const stream = p.stream();
  await sleep(spec.streamBeforeMs ?? 2000);
  let injectedAt = Date.now();
  let endedAt: number | undefined;
  let stopping: Promise<void> | undefined;
  const later: Promise<string>[] = [];
  let injectError: unknown;
  try {
    await spec.inject({
      pipeline: p,
      stream,
      injected: () => void (injectedAt = Date.now()),
      ended: () => {
        endedAt ??= Date.now();
        stopping ??= stream.stop();
      },
      note: (text) => void notes.push(text),
      noteLater: (text) => void later.push(text.catch((error: unknown) => `(${errorText(error)})`)),
    });
  } catch (error) {
    injectError = error;
  }
  const faultEnd = endedAt ?? Date.now();
  await (stopping ?? stream.stop());
  await p.redeliverRefused(stream.deliveries);
  const convergedAt = injectError === undefined ? await p.waitConverged(spec.recoveryTimeoutMs ?? 120_000) : null;
  const state = convergedAt === null ? await p.describeState() : '';
  let lost: { delivery: DeliveryLog; why: string }[] = [];
  let lostError: unknown;
  try {
    lost = await p.lostDeliveries(stream.deliveries);
  } catch (error) {
    lostError = error;
  }
  let deadAfter = deadBefore;
  let deadError: unknown;
  try {
    deadAfter = await deadLetterCount(p.brokers);
  } catch (error) {
    deadError = error;
  }
  notes.push(...(await Promise.all(later)));
  const refused = stream.deliveries.filter((d) => !d.acknowledged);
  const statuses = [...new Set(refused.map((d) => (d.status === null ? 'no connection' : String(d.status))))];
  if (refused.length > 0) notes.push(`first attempts without 202: ${refused.length} (${statuses.join(', ')})`);
  const row = results.add({
    fault: spec.fault,
    injections: spec.injections ?? 1,
    deliveries: stream.deliveries.length,
    acknowledged: stream.acknowledgedCount,
    refused: refused.length,
    redelivered: refused.filter((d) => d.redeliveredOk).length,
    lost: lostError === undefined ? lost.length : -1,
    deadLettered: deadError === undefined ? deadAfter - deadBefore : -1,
    faultSeconds: (faultEnd - injectedAt) / 1000,
    recoverySeconds: convergedAt === null ? null : (convergedAt - faultEnd) / 1000,
    notes: notes.join('; '),
  });
  process.stdout.write(`[faults] ${JSON.stringify(row)}\n`);

  if (injectError !== undefined) throw injectError as Error;
  expect(stream.errors).toEqual([]);
  if (lostError !== undefined) throw lostError as Error;
  expect(lost.map((l) => `${l.delivery.repository} ${l.delivery.id}: ${l.why}`)).toEqual([]);
  expect(refused.filter((d) => !d.redeliveredOk).map((d) => `${d.repository} ${d.id}: first ${d.status ?? d.error}, redeliveries ${JSON.stringify(d.redeliveries)}`)).toEqual([]);
  if (convergedAt === null) {
    throw new Error(`${spec.fault}: the index did not equal GitHub within ${(spec.recoveryTimeoutMs ?? 120_000) / 1000}s of the fault's end:\n${state}\n${p.tails()}`);
  }
  if (deadError !== undefined) throw new Error(`${spec.fault}: the dead letters could not be counted after the fault: ${errorText(deadError)}`, { cause: deadError });
  expect({ fault: spec.fault, deadLetters: row.deadLettered }).toEqual({ fault: spec.fault, deadLetters: spec.deadLetters ?? 0 });
  await p.expectIndexEqualsGitEverywhere();
  // The stream really flowed: several repositories got acknowledged pushes.
  expect(new Set(stream.deliveries.filter((d) => d.acknowledged || d.redeliveredOk).map((d) => d.repository)).size).toBe(p.repos.length);
  return row;
}
