export { SqliteEventLog, type SqliteEventLogOptions } from './sqlite-event-log';
export { SqliteDeadLetters } from './sqlite-dead-letters';
