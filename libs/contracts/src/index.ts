export * from './events';
export * from './documents';
export * from './config';
export * from './path-terms';
export * from './tools';
export * from './content-terms';
export * from './file-bytes';
export * from './published-sites';
