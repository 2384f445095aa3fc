export * from './index-store';
