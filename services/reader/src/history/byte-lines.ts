/** Lines numbered from bytes live in @gitdex/diff, beside the blame core that uses them. */
export { ByteLineIds, ByteLines } from '@gitdex/diff';
