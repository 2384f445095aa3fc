export { mountHealth, type HealthOptions, type HealthNote } from './health';
export { createLogger, type Logger, type LoggerOptions } from './logger';
export { errorFields, silentLog, type Log, type LogContext } from './log';
export { childTraceparent, parseTraceparent, type TraceContext } from './trace-context';
