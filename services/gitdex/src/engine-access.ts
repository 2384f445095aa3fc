import { ConfigError, elasticsearchRefusalSetting, elasticsearchSecurity, engineSecurityConfigured, kafkaRefusalSetting, kafkaSecurity, type Env } from '@gitdex/contracts';
import { checkElasticsearchAccess, createClient, resolveOptions } from '@gitdex/elasticsearch';
import { checkKafkaAccess, createKafka } from '@gitdex/kafka';
import type { Log } from '@gitdex/observability';

/**
 * Logs in to each secured engine once before the roles start. A refused password, CA or
 * certificate stops the start with the setting to change (retrying would never succeed); an
 * engine that does not answer yet is only told: the services answer 503 until it does.
 */
export async function checkEngineAccess(env: Env, log: Log): Promise<void> {
  const secured = engineSecurityConfigured(env);
  const problems: { variable: string; message: string }[] = [];
  if (secured.kafka && env.KAFKA_BROKERS) {
    const security = kafkaSecurity(env);
    const access = await checkKafkaAccess(createKafka({ brokers: env.KAFKA_BROKERS, clientId: env.KAFKA_CLIENT_ID, ...security }));
    if (!access.ok && access.part === 'unreachable') log.warn({ detail: access.detail }, 'Kafka did not answer the start-up login check; going on');
    else if (!access.ok && access.part !== 'unreachable') {
      const what =
        access.part === 'sasl'
          ? `Kafka refused the SASL login (${security.sasl?.mechanism.toUpperCase() ?? 'SASL'}) of user ${security.sasl?.username ?? '?'}: check the password and the mechanism`
          : access.part === 'ca'
            ? `the broker's certificate is not signed by the CA in KAFKA_SSL_CA_FILE (or the system's CAs without it)`
            : 'the broker refused the client certificate (KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE): it is missing or not signed by a CA the broker trusts';
      problems.push({ variable: kafkaRefusalSetting(env, access.part), message: `${what} (${access.detail})` });
    }
  }
  if (secured.elasticsearch && env.ELASTICSEARCH_URL) {
    const client = createClient(resolveOptions({ node: env.ELASTICSEARCH_URL, maxRetries: 0, ...elasticsearchSecurity(env) }));
    try {
      const access = await checkElasticsearchAccess(client);
      if (!access.ok && access.part === 'unreachable') log.warn({ detail: access.detail }, 'Elasticsearch did not answer the start-up login check; going on');
      else if (!access.ok && access.part !== 'unreachable') {
        const what =
          access.part === 'credentials'
            ? `Elasticsearch refused the credentials (${access.detail}): check the API key or the user and password`
            : `the server's certificate is not signed by the CA in ELASTICSEARCH_CA_FILE (or the system's CAs without it) (${access.detail})`;
        problems.push({ variable: elasticsearchRefusalSetting(env, access.part), message: what });
      }
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
}
