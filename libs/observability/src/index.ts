export * from './health';
export * from './logger';
