import type { Kafka } from 'kafkajs';

/**
 * Why the brokers refused this client, by the setting that has to change: the SASL login, the CA
 * that verifies the brokers, or the client certificate they verify. `unreachable` is no
 * refusal: the brokers may come later, and the services answer 503 until then.
 */
export type KafkaAccess = { ok: true } | { ok: false; part: 'sasl' | 'ca' | 'client-certificate' | 'unreachable'; detail: string };

const CA_CODES =
  /^(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_(HAS_EXPIRED|NOT_YET_VALID|SIGNATURE_FAILURE|UNTRUSTED)|ERR_TLS_CERT_ALTNAME_INVALID)$/;
const CLIENT_CERT = /certificate required|bad certificate|unknown ca|certificate unknown|ALERT_(CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA)/i;

/** Logs in once with an admin client and says what, if anything, the brokers refused. */
export async function checkKafkaAccess(kafka: Kafka): Promise<KafkaAccess> {
  const admin = kafka.admin({ retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 500 } });
  try {
    await admin.connect();
    await admin.describeCluster();
    return { ok: true };
  } catch (error) {
    return classify(error);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

function classify(error: unknown): KafkaAccess & { ok: false } {
  const chain = causes(error);
  const sasl = chain.find((e) => e.name === 'KafkaJSSASLAuthenticationError');
  if (sasl) return { ok: false, part: 'sasl', detail: sasl.message };
  const ca = chain.find((e) => CA_CODES.test(String(e.code ?? '')));
  if (ca) return { ok: false, part: 'ca', detail: `${String(ca.code)}: ${ca.message}` };
  const client = chain.find((e) => CLIENT_CERT.test(`${String(e.code ?? '')} ${e.message}`));
  if (client) return { ok: false, part: 'client-certificate', detail: client.message };
  const first = chain[chain.length - 1];
  return { ok: false, part: 'unreachable', detail: first ? first.message : String(error) };
}

type Link = Error & { code?: string | number; cause?: unknown; originalError?: unknown };

function causes(error: unknown): Link[] {
  const chain: Link[] = [];
  let next: unknown = error;
  while (next instanceof Error && chain.length < 10 && !chain.includes(next)) {
    const link = next as Link;
    chain.push(link);
    next = link.cause ?? link.originalError;
  }
  return chain;
}
