/**
 * The size of the program RE2 compiles a pattern to, counted before compiling it: as RE2's
 * parser counts it (one instruction a literal character or class, two a capture or `*`, one a
 * `+` or `?`), with counted repetition expanded (`x{2,5}` costs five copies of `x` and three
 * choices). The count never falls below the real one for a valid pattern: it reads a little
 * less syntax than RE2 and, where it is unsure, counts more (a `{` that is not a repetition is a
 * literal to RE2 and one instruction here too).
 *
 * Why count before compiling: re2js spends time and memory in proportion to the program (a
 * 1,000-character `a{0,999}…` compiled for 3 s into ~394 MB), and matching costs the program's
 * size at every character of the text.
 */
export function programSize(pattern: string): number {
  return new Counter(pattern).alternation();
}

/** Counts stop growing here: anything past it is refused anyway, and numbers stay finite. */
const CEILING = 1e12;

class Counter {
  private i = 0;
  /** Characters of a \Q…\E before its last one: a repetition after it repeats the last one only. */
  private quoted = 0;
  constructor(private readonly src: string) {}

  alternation(): number {
    const branches = [this.concatenation()];
    while (this.src[this.i] === '|') {
      this.i += 1;
      branches.push(this.concatenation());
    }
    const sum = branches.reduce((a, b) => a + b, 0) + branches.length - 1;
    return Math.min(CEILING, sum);
  }

  private concatenation(): number {
    let size = 0;
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      size += this.repeated(this.atom());
      size += this.quoted;
      this.quoted = 0;
      if (size >= CEILING) return CEILING;
    }
    return size;
  }

  /** An atom's size with the repetitions that follow it (`x**` repeats a repetition). */
  private repeated(atom: number): number {
    let size = atom;
    for (;;) {
      const c = this.src[this.i];
      if (c === '*') size = 2 + size;
      else if (c === '+' || c === '?') size = 1 + size;
      else if (c === '{') {
        const counted = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i, this.i + 24));
        if (!counted) return size;
        const min = Number(counted[1]);
        const max = counted[2] === undefined ? min : counted[3] === '' ? -1 : Number(counted[3]);
        size = max === -1 ? (min === 0 ? 2 + size : 1 + min * size) : max * size + Math.max(0, max - min);
        this.i += counted[0].length - 1;
      } else return Math.max(1, Math.min(CEILING, size));
      this.i += 1;
      if (this.src[this.i] === '?') this.i += 1; // non-greedy: the same program
      size = Math.min(CEILING, size);
    }
  }

  private atom(): number {
    const c = this.src[this.i];
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '\\') return this.escape();
    this.i += 1;
    return 1;
  }

  private group(): number {
    this.i += 1;
    let capture = 2;
    if (this.src[this.i] === '?') {
      const flags = /^\?[a-zA-Z-]*\)/.exec(this.src.slice(this.i));
      if (flags) {
        // (?i): flags for what follows, no instruction.
        this.i += flags[0].length;
        return 0;
      }
      const named = /^\?P?<[^>]*>/.exec(this.src.slice(this.i));
      if (named) this.i += named[0].length;
      else {
        const nonCapturing = /^\?[a-zA-Z-]*:/.exec(this.src.slice(this.i));
        if (nonCapturing) {
          this.i += nonCapturing[0].length;
          capture = 0;
        }
      }
    }
    const inner = this.alternation();
    if (this.src[this.i] === ')') this.i += 1;
    return inner + capture;
  }

  private charClass(): number {
    // [...]: one instruction whatever its ranges; "]" right after "[" or "[^" is a member.
    this.i += 1;
    if (this.src[this.i] === '^') this.i += 1;
    if (this.src[this.i] === ']') this.i += 1;
    while (this.i < this.src.length && this.src[this.i] !== ']') {
      if (this.src[this.i] === '\\') this.i += 2;
      else if (this.src.startsWith('[:', this.i)) {
        const end = this.src.indexOf(':]', this.i + 2);
        this.i = end < 0 ? this.i + 1 : end + 2;
      } else this.i += 1;
    }
    this.i += 1;
    return 1;
  }

  private escape(): number {
    const next = this.src[this.i + 1];
    if (next === 'Q') {
      // \Q…\E: every character between is a literal.
      const end = this.src.indexOf('\\E', this.i + 2);
      const stop = end < 0 ? this.src.length : end;
      const size = stop - (this.i + 2);
      this.i = end < 0 ? this.src.length : end + 2;
      this.quoted = Math.max(0, size - 1);
      return Math.min(1, size);
    }
    const braced = /^\\[pPx]\{[^}]*\}/.exec(this.src.slice(this.i, this.i + 64));
    if (braced) {
      this.i += braced[0].length;
      return 1;
    }
    const short = /^\\(?:[pP][A-Za-z]|x[0-9a-fA-F]{2}|[0-7]{1,3}|[\s\S])/.exec(this.src.slice(this.i, this.i + 4));
    this.i += short ? short[0].length : 1;
    return 1;
  }
}
