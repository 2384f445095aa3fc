import { PortError } from '@gitdex/ports';

/** Every failure to reach Kafka is retriable for the caller: the broker may come back. */
export function kafkaUnavailable(action: string, cause: unknown): PortError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new PortError('UNAVAILABLE', `Kafka unavailable while ${action}: ${detail}`, { retriable: true, cause });
}

export function withDeadline<T>(promise: Promise<T>, ms: number, action: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline])
    .catch((error: unknown) => {
      throw kafkaUnavailable(action, error);
    })
    .finally(() => clearTimeout(timer));
}
