export { createKafka, type KafkaOptions, type KafkaTls, type KafkaSasl, type KafkaSaslMechanism } from './options';
export { checkKafkaAccess, type KafkaAccess } from './access-check';
export { type KafkaPublisherOptions, KafkaPublisher } from './publisher';
export { DEFAULT_CONSUMER_MEMBERS, type KafkaConsumerOptions, KafkaConsumer } from './consumer';
export { KafkaDeadLetters } from './dead-letters';
export { ensureTopics, replicationFor, type TopicReplication, type TopicSpec } from './topics';
export { DEFAULT_IN_FLIGHT, InFlightScheduler, type InFlightLimits, type InFlightEvent, type InFlightOptions } from './in-flight';
export { PartitionProgress } from './partition-progress';
