/** The blame core lives in @gitdex/diff, shared with the indexer, which stores version blames. */
export { blame, BlamePathMissing, memoKey, treeBlameHistory, type BlameCommit, type BlamedLine, type BlameHistory, type BlameMemo, type TreeHistory, type VersionBlame } from '@gitdex/diff';
