export { createKafka, type KafkaOptions } from './options';
export { type KafkaPublisherOptions, KafkaPublisher } from './publisher';
export { DEFAULT_CONSUMER_MEMBERS, type KafkaConsumerOptions, KafkaConsumer } from './consumer';
export { KafkaDeadLetters } from './dead-letters';
export { ensureTopics, replicationFor, type TopicReplication, type TopicSpec } from './topics';
