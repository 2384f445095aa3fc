import type { DeadLetter, GitdexEvent } from '@gitdex/contracts';

/** Headers travel with an event (trace context). */
export type EventHeaders = Record<string, string>;

export interface EventEnvelope {
  event: GitdexEvent;
  headers: EventHeaders;
  /** Where the event sits in the log, for logs and metrics only. */
  position: string;
}

/**
 * Handles the events of one partition in order. Resolving commits them; throwing a
 * retriable error leaves them uncommitted to be delivered again.
 */
export type EventBatchHandler = (batch: EventEnvelope[], signal: { heartbeat(): Promise<void> }) => Promise<void>;

export interface EventPublisher {
  /** Resolves only once the log has durably accepted every event (acks from all in-sync replicas). */
  publish(events: { event: GitdexEvent; headers?: EventHeaders }[]): Promise<void>;
  /** Whether the log answers right now: drives /readyz. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface EventConsumer {
  /** Starts delivering; returns once the consumer joined. */
  start(handler: EventBatchHandler): Promise<void>;
  /** Events accepted but not yet handled, for status and metrics. */
  lag(): Promise<number>;
  /** False when the consumer stopped for good and the process needs replacing (drives /readyz). */
  readonly healthy: boolean;
  stop(): Promise<void>;
}

export interface DeadLetterStore {
  add(letter: DeadLetter): Promise<void>;
  list(limit: number): Promise<{ id: string; letter: DeadLetter }[]>;
  /** Publishes the dead letters again (all, or those named) and removes them from the store. */
  replay(publisher: EventPublisher, ids?: string[]): Promise<number>;
}
