export * from './index-store';
export * from './event-log';
