import { MAX_SIGNATURE_CHARS } from '@gitdex/contracts';
import type { Node } from 'web-tree-sitter';

/**
 * A definition's first line(s) up to its body, whitespace collapsed, at most MAX_SIGNATURE_CHARS:
 * `def area(self, scale: float) -> float:`, `export class Store<T> extends Base`.
 */
export function signatureOf(node: Node, content: string): string {
  // The body, or the body of the function a declarator holds (`const f = (a) => {...}`).
  const body = node.childForFieldName('body') ?? node.childForFieldName('value')?.childForFieldName('body');
  return signatureBetween(content, node.startIndex, body && body.startIndex > node.startIndex ? body.startIndex : null, node.endIndex);
}

/** The same for a definition known by offsets: its start, its body's start (null: none), its end. */
export function signatureBetween(content: string, start: number, bodyStart: number | null, endIndex: number): string {
  const end = bodyStart ?? endIndex;
  // Read no further than needed: a signature never needs more than a few times its limit (and a
  // search for the end of the line must not run to the end of a minified file for each definition).
  const text = content.slice(start, Math.min(end, start + MAX_SIGNATURE_CHARS * 4));
  // Without a body (a type alias, a prototype), the first line says enough.
  const newline = text.indexOf('\n');
  return collapse(bodyStart !== null || newline === -1 ? text : text.slice(0, newline));
}

function collapse(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*[{=]$/, '')
    .slice(0, MAX_SIGNATURE_CHARS);
}
