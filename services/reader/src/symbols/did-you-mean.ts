import { nearNames } from '@gitdex/terms';

/** Names shown when nothing was found: enough to spot a typo, few enough to read. */
export const DID_YOU_MEAN = 5;

/** The names closest to what was asked, best first (nearNames of @gitdex/terms), at most `limit`. */
export function closestNames(asked: string, names: readonly string[], limit = DID_YOU_MEAN): string[] {
  return nearNames(asked, names).slice(0, limit);
}
