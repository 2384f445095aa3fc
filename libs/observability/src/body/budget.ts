import { isIPv6 } from 'node:net';

export interface BodyBudgetOptions {
  /** Body bytes all requests together may hold at once. */
  maxBytes: number;
  /** Body bytes the requests of one address may hold at once (below maxBytes, so one address never holds it all). */
  maxBytesPerAddress: number;
}

/** Why a chunk did not fit: the whole budget is held, or this address's share is. */
export type BudgetRefusal = 'busy' | 'address_busy';

/**
 * Bytes of request bodies held in memory, counted as they are read (never as declared),
 * across all requests and per client address. A chunk that does not fit is refused and
 * counts nothing; what a request took is given back when it is done with.
 */
export class BodyBudget {
  readonly maxBytes: number;
  readonly maxBytesPerAddress: number;
  private total = 0;
  private highest = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(options: BodyBudgetOptions) {
    if (!(options.maxBytes > 0) || !(options.maxBytesPerAddress > 0)) throw new RangeError('a body budget needs positive maxBytes and maxBytesPerAddress');
    this.maxBytes = options.maxBytes;
    this.maxBytesPerAddress = Math.min(options.maxBytesPerAddress, options.maxBytes);
  }

  /** Bytes held now by all requests. */
  get inFlight(): number {
    return this.total;
  }

  /** The most bytes ever held at once (what the budget let into memory at its worst). */
  get peak(): number {
    return this.highest;
  }

  /** Bytes held now by the requests of one address (keyed as addressKey does). */
  inFlightOf(address: string): number {
    return this.byAddress.get(addressKey(address)) ?? 0;
  }

  /** Counts `bytes` for `address`, or says why they do not fit (then nothing is counted). */
  take(address: string, bytes: number): BudgetRefusal | null {
    const key = addressKey(address);
    const held = this.byAddress.get(key) ?? 0;
    if (held + bytes > this.maxBytesPerAddress) return 'address_busy';
    if (this.total + bytes > this.maxBytes) return 'busy';
    this.byAddress.set(key, held + bytes);
    this.total += bytes;
    if (this.total > this.highest) this.highest = this.total;
    return null;
  }

  /** Gives back bytes an address took. */
  give(address: string, bytes: number): void {
    if (bytes <= 0) return;
    const key = addressKey(address);
    const left = (this.byAddress.get(key) ?? 0) - bytes;
    if (left > 0) this.byAddress.set(key, left);
    else this.byAddress.delete(key);
    this.total = Math.max(0, this.total - bytes);
  }
}

/**
 * The unit an address budget is kept for: an IPv4 address (also when written IPv4-mapped),
 * or an IPv6 address's /64 network, since one host is commonly handed a whole /64 and could
 * otherwise take a fresh address for every request.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('%')[0]!.split('::', 2) as [string, string?];
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}
