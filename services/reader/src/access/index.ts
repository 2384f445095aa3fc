export { patternMatches, readablePatterns, scopedAccess } from './patterns';
