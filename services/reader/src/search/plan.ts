import { foldText, foldUnit } from '@gitdex/terms';
import type { ContentPlan } from '@gitdex/ports';

/**
 * Turns a query into the content plan the index answers (which trigrams a matching file
 * must hold), after Russ Cox's codesearch: every match of the pattern contains one string
 * of each "exact set" the analysis keeps, so a file without any of their trigrams cannot
 * match. The analysis only ever loses precision (falls back to "all"), never soundness:
 * whatever it does not understand matches anything.
 */

const ALL: ContentPlan = { op: 'all' };
/** Largest exact set kept before it is turned into a plan (cross products grow fast). */
const MAX_EXACT = 16;
/** Plans bigger than this become "all": a huge OR is slower than scanning. */
const MAX_PLAN_NODES = 200;

interface Info {
  /**
   * Every string the piece can match, when few; null when unknown or many. Folded where the
   * pattern is case-insensitive, as written where it is case-sensitive: a plan of strings
   * all written in their case (no part of the pattern case-insensitive) asks for their humps.
   */
  exact: Set<string> | null;
  /** What a match of the piece implies about the content, when exact is null. */
  match: ContentPlan;
}

const anyInfo = (): Info => ({ exact: null, match: ALL });
const emptyInfo = (): Info => ({ exact: new Set(['']), match: ALL });

function and(parts: ContentPlan[]): ContentPlan {
  const kept = parts.flatMap((p) => (p.op === 'all' ? [] : p.op === 'and' ? p.of : [p]));
  if (kept.length === 0) return ALL;
  return kept.length === 1 ? (kept[0] as ContentPlan) : { op: 'and', of: kept };
}

function or(parts: ContentPlan[]): ContentPlan {
  if (parts.length === 0 || parts.some((p) => p.op === 'all')) return ALL;
  const flat = parts.flatMap((p) => (p.op === 'or' ? p.of : [p]));
  return flat.length === 1 ? (flat[0] as ContentPlan) : { op: 'or', of: flat };
}

/** Any string of the set must occur: an OR of substrings; a string under 3 units says nothing. */
function planOfStrings(strings: Set<string>): ContentPlan {
  const list = [...strings];
  if (list.some((s) => s.length < 3)) return ALL;
  return or(list.map((text) => ({ op: 'substring', text: foldText(text), cased: text })));
}

/** The plan without its `cased` strings: what a pattern with a case-insensitive part may ask for. */
function folded(plan: ContentPlan): ContentPlan {
  switch (plan.op) {
    case 'all':
      return plan;
    case 'substring':
      return { op: 'substring', text: plan.text };
    case 'and':
    case 'or':
      return { op: plan.op, of: plan.of.map(folded) };
  }
}

const planOf = (info: Info): ContentPlan => (info.exact ? planOfStrings(info.exact) : info.match);

function concat(items: Info[]): Info {
  const plans: ContentPlan[] = [];
  let run: Set<string> | null = new Set(['']);
  for (const item of items) {
    if (item.exact && run && run.size * item.exact.size <= MAX_EXACT) {
      const next = new Set<string>();
      for (const a of run) for (const b of item.exact) next.add(a + b);
      run = next;
      continue;
    }
    if (run) plans.push(planOfStrings(run));
    if (item.exact) run = new Set(item.exact);
    else {
      plans.push(item.match);
      run = new Set(['']);
    }
  }
  if (plans.length === 0) return { exact: run, match: ALL };
  if (run) plans.push(planOfStrings(run));
  return { exact: null, match: and(plans) };
}

function alternate(items: Info[]): Info {
  if (items.every((i) => i.exact)) {
    const union = new Set<string>();
    for (const item of items) for (const s of item.exact as Set<string>) union.add(s);
    if (union.size <= MAX_EXACT) return { exact: union, match: ALL };
  }
  return { exact: null, match: or(items.map(planOf)) };
}

/** Whether a unit has case variants RE2 might fold to a different index term (non-ASCII letters). */
function unsafeWhenFolding(unit: number): boolean {
  if (unit < 0x80) return false;
  const ch = String.fromCharCode(unit);
  return ch.toLowerCase() !== ch.toUpperCase();
}

function charInfo(unit: number, caseInsensitive: boolean): Info {
  if (!caseInsensitive) return { exact: new Set([String.fromCharCode(unit)]), match: ALL };
  if (unsafeWhenFolding(unit)) return anyInfo();
  return { exact: new Set([String.fromCharCode(foldUnit(unit))]), match: ALL };
}

class Unsupported extends Error {}

/** A recursive-descent reader of RE2 syntax, enough to plan; anything it does not know means "any". */
class Planner {
  private i = 0;
  /** Whether some part of the pattern is case-insensitive: its strings are then folded in part, and only their folds are asked for. */
  foldsCase = false;
  constructor(
    private readonly src: string,
    private caseInsensitive: boolean,
  ) {}

  run(): Info {
    const info = this.alternation();
    if (this.i < this.src.length) throw new Unsupported('trailing input');
    return info;
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  private alternation(): Info {
    const saved = this.caseInsensitive;
    const branches = [this.concatenation()];
    while (this.peek() === '|') {
      this.i += 1;
      branches.push(this.concatenation());
    }
    this.caseInsensitive = saved;
    return branches.length === 1 ? (branches[0] as Info) : alternate(branches);
  }

  private concatenation(): Info {
    const items: Info[] = [];
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      items.push(this.repeat(this.atom()));
    }
    return items.length === 0 ? emptyInfo() : concat(items);
  }

  private repeat(atom: Info): Info {
    let info = atom;
    for (;;) {
      const c = this.peek();
      let min: number;
      if (c === '*' || c === '+') {
        min = c === '*' ? 0 : 1;
        this.i += 1;
      } else if (c === '?') {
        this.i += 1;
        info = info.exact && info.exact.size < MAX_EXACT ? { exact: new Set([...info.exact, '']), match: ALL } : anyInfo();
        if (this.peek() === '?') this.i += 1;
        continue;
      } else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
        if (!m) return info; // a literal "{", as RE2 reads it
        this.i += m[0].length;
        min = Number(m[1]);
        const exactly = m[2] === undefined;
        if (exactly && info.exact && min <= 4) {
          info = concat(Array.from({ length: min }, () => info));
          if (this.peek() === '?') this.i += 1;
          continue;
        }
      } else return info;
      if (this.peek() === '?') this.i += 1;
      // x+ and x{n,} (n >= 1) hold x at least once; x* and x{0,} say nothing.
      info = min >= 1 ? { exact: null, match: planOf(info) } : anyInfo();
    }
  }

  private atom(): Info {
    const c = this.peek() as string;
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '\\') return this.escape();
    this.i += 1;
    if (c === '.') return anyInfo();
    if (c === '^' || c === '$') return emptyInfo();
    return this.char(c.charCodeAt(0));
  }

  private char(unit: number): Info {
    if (this.caseInsensitive) this.foldsCase = true;
    return charInfo(unit, this.caseInsensitive);
  }

  private group(): Info {
    this.i += 1;
    const saved = this.caseInsensitive;
    if (this.peek() === '?') {
      const m = /^\?(?:P?<[^>]+>|([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)]))/.exec(this.src.slice(this.i));
      if (!m) throw new Unsupported('group');
      this.i += m[0].length;
      if (m[3] !== undefined) {
        const on = m[1] ?? '';
        const off = m[2] ?? '';
        const flags = this.caseInsensitive;
        const next = off.includes('i') ? false : on.includes('i') ? true : flags;
        if (m[3] === ')') {
          // (?i) changes the rest of the enclosing group.
          this.caseInsensitive = next;
          return emptyInfo();
        }
        this.caseInsensitive = next;
      }
    }
    const inner = this.alternation();
    if (this.peek() !== ')') throw new Unsupported('unclosed group');
    this.i += 1;
    this.caseInsensitive = saved;
    return inner;
  }

  private escape(): Info {
    const rest = this.src.slice(this.i + 1);
    const c = rest[0];
    if (c === undefined) throw new Unsupported('trailing backslash');
    if (c === 'Q') {
      const end = rest.indexOf('\\E');
      const text = end < 0 ? rest.slice(1) : rest.slice(1, end);
      this.i += 2 + text.length + (end < 0 ? 0 : 2);
      return concat([emptyInfo(), ...Array.from({ length: text.length }, (_, k) => this.char(text.charCodeAt(k)))]);
    }
    if ('bBAz'.includes(c)) {
      this.i += 2;
      return emptyInfo();
    }
    if ('pP'.includes(c)) {
      const m = /^[pP](\{[^}]*\}|[A-Za-z])/.exec(rest);
      this.i += 1 + (m ? m[0].length : 1);
      return anyInfo();
    }
    const simple: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13, a: 7 };
    if (c in simple) {
      this.i += 2;
      return this.char(simple[c] as number);
    }
    if (c === 'x') {
      const m = /^x(\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{2}))/.exec(rest);
      if (!m) throw new Unsupported('hex');
      this.i += 1 + m[0].length;
      const code = parseInt(m[2] ?? m[3] ?? '0', 16);
      if (code > 0xffff) return anyInfo();
      return this.char(code);
    }
    if (/[0-7]/.test(c)) {
      const m = /^[0-7]{1,3}/.exec(rest) as RegExpExecArray;
      this.i += 1 + m[0].length;
      return this.char(parseInt(m[0], 8));
    }
    if (/[A-Za-z]/.test(c)) {
      // \d \w \s \C and friends: a class of many characters.
      this.i += 2;
      return anyInfo();
    }
    this.i += 2;
    return this.char(c.charCodeAt(0));
  }

  /** A bracket class: the set of its characters when it is small and plain, else any. */
  private charClass(): Info {
    const start = this.i;
    this.i += 1;
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.i += 1;
    }
    const chars = new Set<number>();
    let plain = true;
    let first = true;
    while (this.i < this.src.length && (this.peek() !== ']' || first)) {
      first = false;
      if (this.src.startsWith('[:', this.i)) {
        const end = this.src.indexOf(':]', this.i + 2);
        if (end < 0) throw new Unsupported('posix class');
        this.i = end + 2;
        plain = false;
        continue;
      }
      const lo = this.classChar();
      if (this.peek() === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        this.i += 1;
        const hi = this.classChar();
        if (lo === null || hi === null || hi - lo > MAX_EXACT) plain = false;
        else for (let u = lo; u <= hi; u += 1) chars.add(u);
      } else if (lo === null) plain = false;
      else chars.add(lo);
    }
    if (this.peek() !== ']') throw new Unsupported(`unclosed class at ${start}`);
    this.i += 1;
    if (negated || !plain || chars.size === 0) return anyInfo();
    if (this.caseInsensitive) this.foldsCase = true;
    const units = new Set<string>();
    for (const u of chars) {
      if (!this.caseInsensitive) units.add(String.fromCharCode(u));
      else if (unsafeWhenFolding(u)) return anyInfo();
      else units.add(String.fromCharCode(foldUnit(u)));
    }
    return units.size <= MAX_EXACT ? { exact: units, match: ALL } : anyInfo();
  }

  /** One character of a class, or null for an escape that stands for many (\d, \pL...). */
  private classChar(): number | null {
    const c = this.peek() as string;
    if (c !== '\\') {
      this.i += 1;
      return c.charCodeAt(0);
    }
    const info = this.escape();
    if (!info.exact || info.exact.size !== 1) return null;
    const [only] = info.exact;
    return only && only.length === 1 ? only.charCodeAt(0) : null;
  }
}

function size(plan: ContentPlan): number {
  return plan.op === 'and' || plan.op === 'or' ? 1 + plan.of.reduce((n, p) => n + size(p), 0) : 1;
}

/** The plan of a literal: its fold (and, case-sensitive, the text itself), split where case-insensitive folding could disagree with the index. */
function literalPlan(text: string, caseInsensitive: boolean): ContentPlan {
  if (!caseInsensitive) return text.length >= 3 ? { op: 'substring', text: foldText(text), cased: text } : ALL;
  const pieces: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unsafeWhenFolding(unit)) {
      pieces.push(current);
      current = '';
    } else current += String.fromCharCode(foldUnit(unit));
  }
  pieces.push(current);
  return and(pieces.filter((p) => p.length >= 3).map((p) => ({ op: 'substring', text: p })));
}

export function planQuery(query: string, regex: boolean, caseSensitive: boolean): ContentPlan {
  if (!regex) return literalPlan(query, !caseSensitive);
  let plan: ContentPlan;
  try {
    const planner = new Planner(query, !caseSensitive);
    plan = planOf(planner.run());
    if (planner.foldsCase) plan = folded(plan);
  } catch (error) {
    if (error instanceof Unsupported) return ALL;
    throw error;
  }
  return size(plan) > MAX_PLAN_NODES ? ALL : plan;
}
