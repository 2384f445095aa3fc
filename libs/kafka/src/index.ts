export * from './options';
export * from './publisher';
export * from './consumer';
export * from './dead-letters';
export { ensureTopics, replicationFor, type TopicReplication, type TopicSpec } from './topics';
