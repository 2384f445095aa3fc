import type { Client } from '@elastic/elasticsearch';

/**
 * Why Elasticsearch refused this client, by the setting that has to change: its credentials or
 * the CA that verifies the nodes. `unreachable` is no refusal: readiness reports it until the
 * cluster answers.
 */
export type ElasticsearchAccess = { ok: true } | { ok: false; part: 'credentials' | 'ca' | 'unreachable'; detail: string };

const CA_CODES =
  /^(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_(HAS_EXPIRED|NOT_YET_VALID|SIGNATURE_FAILURE|UNTRUSTED)|ERR_TLS_CERT_ALTNAME_INVALID)$/;
const CA_WORDS = /self[- ]signed certificate|unable to verify the first certificate|unable to get (local )?issuer certificate|certificate has expired|Hostname\/IP does not match/i;

/** One authenticated request (GET /) and what, if anything, was refused. */
export async function checkElasticsearchAccess(client: Client): Promise<ElasticsearchAccess> {
  try {
    await client.info();
    return { ok: true };
  } catch (error) {
    const status = (error as { meta?: { statusCode?: number } }).meta?.statusCode;
    if (status === 401 || status === 403) return { ok: false, part: 'credentials', detail: `HTTP ${status}` };
    const chain = causes(error);
    const ca = chain.find((e) => CA_CODES.test(String(e.code ?? '')) || CA_WORDS.test(e.message));
    if (ca) return { ok: false, part: 'ca', detail: ca.code ? `${String(ca.code)}: ${ca.message}` : ca.message };
    return { ok: false, part: 'unreachable', detail: error instanceof Error ? error.message : String(error) };
  }
}

type Link = Error & { code?: string | number; cause?: unknown };

function causes(error: unknown): Link[] {
  const chain: Link[] = [];
  let next: unknown = error;
  while (next instanceof Error && chain.length < 10 && !chain.includes(next)) {
    const link: Link = next;
    chain.push(link);
    next = link.cause;
  }
  return chain;
}
