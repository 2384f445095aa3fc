// The outline beside a file: its definitions, nested as the file nests them, each a link to its
// line in the file view. Built from file_outline through the REST API; text goes in as text only.
import type { FileOutlineOutput, OutlineNode } from '@gitdex/contracts';
import { h } from './dom.js';
import { plural } from './format.js';
import { fileHash } from './route.js';

function items(owner: string, repo: string, path: string, nodes: OutlineNode[]): HTMLElement {
  return h(
    'ul',
    {},
    nodes.map((node) =>
      h(
        'li',
        {},
        h(
          'a',
          { href: fileHash(owner, repo, path, node.line), title: node.signature, class: 'outline-item' },
          h('span', { class: 'kind' }, node.kind),
          ' ',
          node.name,
          ' ',
          h('span', { class: 'ln' }, String(node.line)),
        ),
        node.children.length > 0 ? items(owner, repo, path, node.children) : null,
      ),
    ),
  );
}

/** The outline panel, or null when the file has no definitions to show. */
export function outlinePanel(owner: string, repo: string, outline: FileOutlineOutput): HTMLElement | null {
  if (outline.symbol_count === 0) return null;
  return h(
    'details',
    { class: 'outline', open: true },
    h('summary', {}, `Outline (${plural(outline.symbol_count, 'definition')})`),
    h('nav', { 'aria-label': `Outline of ${outline.path}` }, items(owner, repo, outline.path, outline.symbols)),
  );
}
