export * from './health';
export * from './logger';
export * from './trace-context';
