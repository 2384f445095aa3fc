export { type Change, type LineDiffOptions, lineDiff } from './line-diff';
export { type Lines, LineIds } from './prepare';
export { BINARY_SNIFF_BYTES, bytesToText, isBinary, splitRecords, textToUtf8 } from './records';
export { type Rename, type RenameCandidate, type RenameOptions, detectRenames } from './renames';
export { DEFAULT_RENAME_SCORE, MAX_SCORE, type SimilarityInput, type SpanCounts, estimateSimilarity, spanCounts } from './similarity';
export { type FileDiff, diffFile } from './file-diff';
export { formatPatch } from './patch';
export { type FileChange, type FilePair, type FileStatus, type ReadBlob, type Tree, type TreeEntry, diffPair, pairTrees } from './tree-diff';
export {
  type BlameCommit,
  type BlamedLine,
  type BlameHistory,
  type BlameMemo,
  type BlameOwner,
  type TreeHistory,
  type VersionBlame,
  blame,
  blameVersion,
  BlamePathMissing,
  memoKey,
  treeBlameHistory,
} from './blame';
export { type VersionBlameRecord, decodeVersionBlame, encodeVersionBlame } from './blame-record';
export { ByteLineIds, ByteLines } from './byte-lines';
export { heldKey } from './held-key';
export { cachedCommits, rememberCommits } from './commit-cache';
