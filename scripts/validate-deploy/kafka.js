'use strict';
// deploy/kafka: the Strimzi KafkaTopic resources (schema written here for the fields of the
// KafkaTopic CRD that gitdex uses, strict) and the kafka-topics script agree with the code's
// topic names and partition count.

const { spawnSync } = require('node:child_process');
const { createAjv, check } = require('./schemas');

/** The part of Strimzi's KafkaTopic (kafka.strimzi.io v1beta2/v1) that topics.yaml may use. */
const KAFKA_TOPIC_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { enum: ['kafka.strimzi.io/v1beta2', 'kafka.strimzi.io/v1'] },
    kind: { const: 'KafkaTopic' },
    metadata: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'labels'],
      properties: {
        name: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$', maxLength: 253 },
        namespace: { type: 'string' },
        labels: { type: 'object', required: ['strimzi.io/cluster'], additionalProperties: { type: 'string' } },
        annotations: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    spec: {
      type: 'object',
      additionalProperties: false,
      required: ['partitions', 'replicas'],
      properties: {
        topicName: { type: 'string', pattern: '^[a-zA-Z0-9._-]{1,249}$' },
        partitions: { type: 'integer', minimum: 1 },
        replicas: { type: 'integer', minimum: 1, maximum: 32767 },
        config: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
      },
    },
  },
};

let compiled;

function validateKafkaTopics(objects, facts) {
  compiled ??= createAjv().compile(KAFKA_TOPIC_SCHEMA);
  const problems = [];
  const topics = new Map();
  for (const obj of objects) {
    const label = `KafkaTopic/${(obj && obj.metadata && obj.metadata.name) || '?'}`;
    const schema = check(compiled, obj);
    for (const m of schema) problems.push(`${label}: ${m}`);
    if (schema.length > 0) continue;
    const topic = obj.spec.topicName || obj.metadata.name;
    topics.set(topic, obj);
    const config = obj.spec.config || {};
    const minInsync = Number(config['min.insync.replicas'] ?? 1);
    if (minInsync > obj.spec.replicas) problems.push(`${label}: min.insync.replicas ${minInsync} is above replicas ${obj.spec.replicas}: no write could succeed`);
    if (minInsync === obj.spec.replicas && obj.spec.replicas > 1) problems.push(`${label}: min.insync.replicas equals replicas: one broker down stops every write`);
    if (config['cleanup.policy'] && config['cleanup.policy'] !== 'delete') problems.push(`${label}: cleanup.policy must be delete (events have no compaction key semantics)`);
  }
  const push = topics.get(facts.eventsTopic);
  if (!push) problems.push(`no KafkaTopic for ${facts.eventsTopic}`);
  else if (push.spec.partitions !== facts.defaults.partitions)
    problems.push(`${facts.eventsTopic}: ${push.spec.partitions} partitions, gitdex's KAFKA_PARTITIONS default is ${facts.defaults.partitions}`);
  const dlq = topics.get(facts.deadLetterTopic);
  if (!dlq) problems.push(`no KafkaTopic for ${facts.deadLetterTopic}`);
  else if (dlq.spec.partitions !== 1) problems.push(`${facts.deadLetterTopic}: gitdex creates it with 1 partition`);
  for (const topic of topics.keys()) if (topic !== facts.eventsTopic && topic !== facts.deadLetterTopic) problems.push(`KafkaTopic for ${topic}: gitdex uses no such topic`);
  return problems;
}

function validateTopicScript(text, facts) {
  const problems = [];
  for (const topic of [facts.eventsTopic, facts.deadLetterTopic]) {
    if (!new RegExp(`^topic ${topic.replace(/\./g, '\\.')} `, 'm').test(text)) problems.push(`does not create ${topic}`);
  }
  if (!text.includes(`PUSH_PARTITIONS:-${facts.defaults.partitions}}`))
    problems.push(`default partitions of ${facts.eventsTopic} should be ${facts.defaults.partitions} (PUSH_PARTITIONS:-${facts.defaults.partitions})`);
  return problems;
}

/** `bash -n` of a shell script: syntax only, nothing runs. Skipped (null) without bash. */
function shellSyntax(file) {
  const result = spawnSync('bash', ['-n', file], { encoding: 'utf8' });
  if (result.error) return result.error.code === 'ENOENT' ? null : [result.error.message];
  return result.status === 0 ? [] : [(result.stderr || '').trim()];
}

module.exports = { validateKafkaTopics, validateTopicScript, shellSyntax, KAFKA_TOPIC_SCHEMA };
