import { PortError } from '@gitdex/ports';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';

/** TLS to the brokers: the CA that signed their certificates, and a client certificate where the brokers ask for one (PEM text). */
export interface KafkaTls {
  /** Without it, the system's trusted CAs verify the brokers. */
  ca?: string | undefined;
  cert?: string | undefined;
  key?: string | undefined;
  /** Pass phrase of an encrypted `key`. */
  passphrase?: string | undefined;
}

export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** A SASL login (over TLS in any real deployment: PLAIN sends the password as it is). */
export interface KafkaSasl {
  mechanism: KafkaSaslMechanism;
  username: string;
  password: string;
}

export interface KafkaOptions {
  brokers: string[];
  clientId?: string;
  /** Topic of the pipeline's events; tests use a random one. */
  topic?: string;
  /** Partitions to create the topic with when it does not exist. */
  partitions?: number;
  /** TLS to the brokers (SSL or SASL_SSL listeners); absent: plaintext. */
  tls?: KafkaTls | undefined;
  /** SASL login; absent: none. */
  sasl?: KafkaSasl | undefined;
}

/** The one place a Kafka client is made: the publisher, the consumers, the dead letters and every admin client come from it. */
export function createKafka(options: KafkaOptions): Kafka {
  if (options.brokers.length === 0) throw new PortError('INVALID', 'KafkaOptions.brokers must name at least one broker (host:port)');
  return new Kafka({
    clientId: options.clientId ?? 'gitdex',
    brokers: options.brokers,
    logLevel: logLevel.NOTHING,
    ...(options.tls ? { ssl: tlsOf(options.tls) } : {}),
    ...(options.sasl ? { sasl: saslOf(options.sasl) } : {}),
    // Fail fast: the webhook must answer GitHub within its 10 s delivery timeout,
    // and a 503 lets the sender retry rather than hang.
    connectionTimeout: 1500,
    requestTimeout: 5000,
    retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1000 },
  });
}

function tlsOf(tls: KafkaTls) {
  return {
    // Verification stays on: a broker whose certificate the CA did not sign is refused.
    rejectUnauthorized: true,
    ...(tls.ca ? { ca: [tls.ca] } : {}),
    ...(tls.cert ? { cert: tls.cert } : {}),
    ...(tls.key ? { key: tls.key } : {}),
    ...(tls.passphrase ? { passphrase: tls.passphrase } : {}),
  };
}

function saslOf(sasl: KafkaSasl): SASLOptions {
  const { username, password } = sasl;
  switch (sasl.mechanism) {
    case 'plain':
      return { mechanism: 'plain', username, password };
    case 'scram-sha-256':
      return { mechanism: 'scram-sha-256', username, password };
    case 'scram-sha-512':
      return { mechanism: 'scram-sha-512', username, password };
  }
}
