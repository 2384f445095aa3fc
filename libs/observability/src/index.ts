export { mountHealth, type HealthOptions, type HealthNote } from './health';
export { createLogger, type Logger, type LoggerOptions } from './logger';
export { errorFields, silentLog, type Log, type LogContext } from './log';
export { childTraceparent, parseTraceparent, type TraceContext } from './trace-context';
// Request bodies read by bytes received, under a shared and a per-address budget and a deadline.
export { addressKey, BodyBudget, type BodyBudgetOptions, type BudgetRefusal } from './body/budget';
export { BodyError, type BodyErrorCode } from './body/body-error';
export { readBody, systemClock, type BodyClock, type BodyLimits, type BodyRead, type BodySource, type ReadBodyOptions } from './body/read-body';
export { createBodyReader, type BodyReader, type BodyReaderOptions } from './body/request-body';
