export * from './errors';
export * from './event-log';
export * from './index-store';
export * from './source';
export * from './content-search';
