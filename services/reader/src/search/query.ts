import { RE2JS } from 're2js';
import { invalid } from '../tool-error';
import { asciiCaseInsensitive } from './ascii-fold';
import { programSize } from './program-size';

/**
 * Largest program a regex may compile to (RE2's count, counted repetition expanded). re2js
 * compiles in time and memory proportional to it and matches at a cost of up to it per
 * character; 2,000 holds `\w{1,1000}` or a few `.{0,200}` and keeps the worst pattern's compile
 * in milliseconds (docs/security.md, "Regex search cannot hold the process").
 */
export const MAX_PROGRAM_SIZE = 2_000;

/**
 * A search query compiled for line-by-line matching with RE2 (re2js: linear time, no
 * backtracking, whatever the pattern). Literals are quoted into the same engine, so both
 * kinds share one semantics; a case-sensitive literal also gets an indexOf fast path.
 */
export interface CompiledQuery {
  text: string;
  regex: boolean;
  caseSensitive: boolean;
  /** Matches within one line (MULTILINE: ^ and $ at line boundaries). */
  re: RE2JS;
  /** The same pattern, case-sensitive: tells exact-case matches apart when searching case-insensitively. */
  exactCase: RE2JS;
  /** A case-sensitive literal: found with indexOf, no regex at all. */
  literal: string | null;
  /** A case-insensitive literal of ASCII characters, found as RE2 finds it by a JavaScript RegExp (asciiCaseInsensitive, global): no regex engine, no lower-cased copy. */
  asciiFoldedLiteral: RegExp | null;
  /**
   * Whether one search over the whole content may rule a file out before its lines are
   * tried: sound unless the pattern uses \A or \z, which mean "start/end of the line" in
   * line-by-line matching but "start/end of the file" over the whole content.
   */
  wholeFilePrefilter: boolean;
  /** Size of the compiled program (programSize): what matching one character may cost. */
  program: number;
}

/** Escapes and POSIX/Unicode class names whose letters say nothing about case. */
const NOT_CASE = /\\[pP]\{[^}]*\}|\\[pP][A-Za-z]|\\[A-Za-z]|\[:[a-z]+:\]|\(\?[a-zA-Z-]*[:)]|\(\?P?<[^>]*>/g;

/** Smart case: a query with an upper-case letter (outside escapes and flag groups) is case-sensitive. */
export function smartCaseSensitive(query: string, regex: boolean): boolean {
  const letters = regex ? query.replace(NOT_CASE, '') : query;
  return /\p{Lu}|\p{Lt}/u.test(letters);
}

/** re2js says "error parsing regexp: <what>: `<where>`": keep that, it names the problem. */
function regexProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^error parsing regexp:\s*/i, '');
}

export function compileQuery(query: string, regex: boolean, caseSensitive: boolean | undefined): CompiledQuery {
  if (/[\n\r]/.test(query) && !regex) throw invalid('query: a literal cannot hold a line break: files are searched line by line. Search for one line of it.');
  if (query.includes('\n')) throw invalid('query: the pattern cannot hold a raw line break: files are searched line by line (\\n never matches).');
  const sensitive = caseSensitive ?? smartCaseSensitive(query, regex);
  const pattern = regex ? query : RE2JS.quote(query);
  const program = programSize(pattern);
  if (regex && program > MAX_PROGRAM_SIZE) {
    throw invalid(
      `query: this regular expression expands to about ${program.toLocaleString('en-US')} instructions, more than the ${MAX_PROGRAM_SIZE.toLocaleString('en-US')} gitdex runs (counted repetition such as {0,999} copies what it repeats). Use fewer or smaller repetition counts, or search for a shorter part of it.`,
    );
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, RE2JS.MULTILINE | (sensitive ? 0 : RE2JS.CASE_INSENSITIVE));
  } catch (error) {
    throw invalid(`query: not a valid RE2 regular expression: ${regexProblem(error)}. Fix it, or pass regex: false to search for the text literally. (RE2 has no backreferences or lookaround.)`);
  }
  // Compiled when ranking first needs it (a case-insensitive search with matches): a compile
  // runs on the event loop, and a large program's takes tens of milliseconds.
  let exactCase: RE2JS | null = sensitive ? re : null;
  return {
    text: query,
    regex,
    caseSensitive: sensitive,
    re,
    get exactCase() {
      exactCase ??= RE2JS.compile(pattern, RE2JS.MULTILINE);
      return exactCase;
    },
    literal: !regex && sensitive ? query : null,
    asciiFoldedLiteral: !regex && !sensitive ? asciiCaseInsensitive(query, true) : null,
    wholeFilePrefilter: !(regex && /\\[Az]/.test(query.replace(/\\\\/g, ''))),
    program,
  };
}
