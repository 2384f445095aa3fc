export { ancestorsOf, compareCodePoints, folderOf, nameOf, extensionOf, depthOf, pathTokens, squashed, trigramsOf } from './path-terms';
export { foldUnit, foldText } from './fold';
export { isHumpTrigramCode, termOfCode } from './term-codes';
export { TermCollector } from './term-collector';
export { termWordOfCode, type TermWordForm } from './term-words';
export { contentTerms, contentTermCodes, contentTermWords, queryTermCodes } from './content-terms';
export { editDistance, editDistances, type Distances } from './edit-distance';
export { nearNames, maxNearEdits, NAMES_PER_SOURCE } from './near-names';
export { tierOf, nestingOf, foldersOf, type TierFlags } from './path-tier';
