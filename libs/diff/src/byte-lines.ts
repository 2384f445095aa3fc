/**
 * A version's lines numbered straight from its bytes, for blame, which numbers every held
 * version of a file: each line (its '\n' included) is hashed and matched byte for byte in one
 * table, so equal lines get equal ids without a string made for every line of every version.
 * A line's text is made only when the diff asks for it (the indent heuristic reads a few).
 */
import type { Lines } from './prepare';

export class ByteLines implements Lines {
  private readonly texts = new Map<number, string>();

  constructor(
    private readonly bytes: Uint8Array,
    /** line i is bytes [starts[i], starts[i + 1]) */
    private readonly starts: Int32Array,
  ) {}

  get length(): number {
    return this.starts.length - 1;
  }

  at(index: number): string | undefined {
    if (index < 0 || index >= this.length) return undefined;
    let text = this.texts.get(index);
    if (text === undefined) {
      const b = this.bytes;
      text = Buffer.from(b.buffer, b.byteOffset + this.starts[index]!, this.starts[index + 1]! - this.starts[index]!).toString('latin1');
      this.texts.set(index, text);
    }
    return text;
  }
}

/** Equal lines, equal id, over every version numbered with one table. */
export class ByteLineIds {
  private slots = new Int32Array(1 << 12).fill(-1);
  private hashes = new Int32Array(1 << 11);
  private readonly owners: Uint8Array[] = [];
  private begins = new Int32Array(1 << 11);
  private ends = new Int32Array(1 << 11);
  size = 0;

  of(bytes: Uint8Array): { lines: ByteLines; ids: Int32Array } {
    const n = bytes.length;
    let count = 0;
    for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) count++;
    if (n > 0 && bytes[n - 1] !== 0x0a) count++;
    const starts = new Int32Array(count + 1);
    const ids = new Int32Array(count);
    let start = 0;
    for (let line = 0; line < count; line++) {
      const nl = bytes.indexOf(0x0a, start);
      const end = nl === -1 ? n : nl + 1;
      let hash = 0x811c9dc5 | 0;
      for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
      starts[line] = start;
      ids[line] = this.idOf(bytes, start, end, hash);
      start = end;
    }
    starts[count] = n;
    return { lines: new ByteLines(bytes, starts), ids };
  }

  private idOf(bytes: Uint8Array, begin: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id === -1) {
        this.add(bytes, begin, end, hash);
        this.slots[slot] = this.size - 1;
        if (this.size * 2 > this.slots.length) this.grow();
        return this.size - 1;
      }
      if (this.hashes[id] === hash && this.same(id, bytes, begin, end)) return id;
    }
  }

  private same(id: number, bytes: Uint8Array, begin: number, end: number): boolean {
    const other = this.owners[id]!;
    const from = this.begins[id]!;
    if (this.ends[id]! - from !== end - begin) return false;
    for (let i = 0; i < end - begin; i++) if (other[from + i] !== bytes[begin + i]) return false;
    return true;
  }

  private add(bytes: Uint8Array, begin: number, end: number, hash: number): void {
    const id = this.size++;
    if (id >= this.hashes.length) {
      const grown = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.hashes = grown(this.hashes);
      this.begins = grown(this.begins);
      this.ends = grown(this.ends);
    }
    this.hashes[id] = hash;
    this.owners.push(bytes);
    this.begins[id] = begin;
    this.ends[id] = end;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let id = 0; id < this.size; id++) {
      let slot = this.hashes[id]! & mask;
      while (slots[slot] !== -1) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
  }
}
