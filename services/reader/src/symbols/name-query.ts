import { operatorName } from '@gitdex/symbols';
import { invalid } from '../tool-error';

/** What find_symbol asks the index for (the port's SymbolNameQuery). */
export type NameQuery = { match: 'exact'; name: string; container?: string } | { match: 'pattern'; pattern: string };

/** Separators between a container and a member as languages write them: Store.flip, Store::flip, Store#flip. */
const MEMBER = /(?:\.|::|#)(?=[^.:#]+$)/;
/**
 * A C++ operator, alone or as a member: `operator` then symbols (`operator==`, `operator*`,
 * `operator()`) or, after a space, a type (`operator bool`, `operator std::string`). Its `*` and
 * `::` belong to the name; a pattern over such names is written without the whole keyword
 * (`operat*`).
 */
const OPERATOR = /(?:^|\.|::|#)(operator(?:\s*[^\w\s.#][^.#]*|\s+[^.#]+))$/;

/**
 * find_symbol's name: an exact name ("flipGeneration"), a member of a container
 * ("IndexStore.flipGeneration", also "::" and "#"), or a pattern where `*` is any run of
 * characters ("flip*"). Containers are stored dotted ("Outer.Inner"), so "::" and "#" are
 * read as dots.
 */
export function parseSymbolName(input: string): NameQuery {
  const name = input.trim();
  const control = /\p{Cc}/u.exec(name);
  if (control)
    throw invalid(
      `name: holds the control character U+${(control[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}, which no symbol name has; give a name such as "flipGeneration"`,
    );
  const operator = OPERATOR.exec(name);
  if (operator) {
    // Stored in the extractor's one spelling, whatever spacing the caller typed.
    const member = operatorName(operator[1] as string);
    return operator.index > 0 ? { match: 'exact', name: member, container: name.slice(0, operator.index).replace(/::|#/g, '.') } : { match: 'exact', name: member };
  }
  if (name.includes('*')) {
    if (/^\*+$/.test(name)) throw invalid('name: a pattern needs at least one character besides * (e.g. "flip*"); find_symbol does not list every symbol');
    return { match: 'pattern', pattern: name };
  }
  const split = MEMBER.exec(name);
  if (split && split.index > 0) {
    const container = name.slice(0, split.index).replace(/::|#/g, '.');
    const member = name.slice(split.index + split[0].length);
    return { match: 'exact', name: member, container };
  }
  return { match: 'exact', name };
}

/** The bare name a query looks for: what "did you mean" and ranking compare to. */
export function bareName(query: NameQuery): string {
  return query.match === 'exact' ? query.name : query.pattern.replace(/\*/g, '');
}
