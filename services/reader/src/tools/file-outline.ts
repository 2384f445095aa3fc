import { MAX_SIGNATURE_CHARS, type FileOutlineInput, type FileOutlineOutput, type OutlineNode, type SymbolDefinition } from '@gitdex/contracts';
import { locate } from '../address/locate';
import type { Principal, ReaderDeps } from '../deps';
import { shortRef, shortSha } from '../freshness';
import { cutText, formatCount, formatNumber, resultChars } from '../format/text';
import { blobUrl } from '../github-links';
import { pathNotFound } from '../not-found';
import { nestOutline } from '../symbols/outline';
import { invalid } from '../tool-error';
import { pendingLine, type ToolAnswer } from './answer';

/** Signature characters kept when a whole outline does not fit an answer. */
const SHORT_SIGNATURE_CHARS = 60;
/** A folder is any path that has files under it, at any depth. */
const ANY_DEPTH = 10_000;

/** file_outline: a file's definitions, nested, in file order: the cheap first look before read_file. */
export async function fileOutline(deps: ReaderDeps, principal: Principal | null, input: FileOutlineInput): Promise<ToolAnswer<FileOutlineOutput>> {
  const { target, path } = await locate(deps, principal, { repository: input.repository, path: input.path, ref: input.ref }, 'file');
  if (path === '') throw invalid('path: give a file path, e.g. "src/index.ts"; to see the root, use list_files or repository_overview');
  const file = await deps.index.fileSymbols(target.snapshot, path);
  if (!file) {
    const folder = await deps.index.listFiles({ ...target.snapshot, folder: path, depth: ANY_DEPTH }, null, 1);
    if (folder.total > 0) throw invalid(`${path} is a folder (${formatNumber(folder.total)} files under it), not a file: list it with list_files (folder "${path}")`);
    throw await pathNotFound(deps, principal, target, path, 'file');
  }
  const status = file.symbols === null ? 'not_extracted' : file.symbols.status;
  const reason = file.symbols?.reason;
  const definitions = [...(file.symbols?.definitions ?? [])].sort((a, b) => a.line - b.line || b.endLine - a.endLine);
  const answer = (kept: readonly SymbolDefinition[], signatureChars: number): ToolAnswer<FileOutlineOutput> => {
    const symbols = nestOutline(signatureChars < MAX_SIGNATURE_CHARS ? kept.map((d) => ({ ...d, signature: cutText(d.signature, signatureChars) })) : kept);
    const structured: FileOutlineOutput = {
      repository: target.repository.fullName,
      ref: target.state.ref,
      path,
      language: file.language,
      status,
      ...(reason !== undefined ? { reason } : {}),
      symbols,
      symbol_count: definitions.length,
      omitted: definitions.length - kept.length,
      url: blobUrl(deps.githubWebUrl, target.repository.fullName, file.commitSha, path),
      freshness: target.freshness,
    };
    return { structured, text: textOf(structured) };
  };
  const fits = (a: ToolAnswer<FileOutlineOutput>) => resultChars(a.text, a.structured) <= deps.limits.maxResultChars;
  let result = answer(definitions, MAX_SIGNATURE_CHARS);
  if (fits(result)) return result;
  // Too many definitions for one answer (a generated or very long file): shorter signatures
  // first, then the first definitions in file order that fit, found by halving.
  result = answer(definitions, SHORT_SIGNATURE_CHARS);
  if (fits(result)) return result;
  let low = 0;
  let high = definitions.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(answer(definitions.slice(0, middle), SHORT_SIGNATURE_CHARS))) low = middle;
    else high = middle - 1;
  }
  return answer(definitions.slice(0, low), SHORT_SIGNATURE_CHARS);
}

function textOf(out: FileOutlineOutput): string {
  const head = `${out.repository} ${out.path} at ${shortRef(out.ref)} (${shortSha(out.freshness.commit)}): ${formatCount(out.symbol_count, 'definition')}${out.language ? `, ${out.language}` : ''}`;
  const lines = [head];
  const lastLine = (nodes: OutlineNode[]): number => {
    const node = nodes[nodes.length - 1];
    return node ? Math.max(node.line, lastLine(node.children)) : 0;
  };
  if (out.status === 'not_extracted') lines.push('No symbols are stored for this file yet (indexed before symbol extraction); read_file reads it.');
  else if (out.status !== 'parsed') lines.push(`Symbols ${out.status}${out.reason ? ` (${out.reason})` : ''}; read_file reads the file.`);
  const walk = (nodes: OutlineNode[], depth: number) => {
    for (const node of nodes) {
      lines.push(`${'  '.repeat(depth)}${node.line}-${node.end_line} ${node.kind} ${node.name}: ${node.signature}`);
      walk(node.children, depth + 1);
    }
  };
  walk(out.symbols, 0);
  if (out.omitted > 0) {
    const last = lastLine(out.symbols);
    lines.push(`[${formatCount(out.omitted, 'more definition')} after line ${last} left out to fit the answer: read_file from line ${last + 1} reads on]`);
  }
  if (out.symbol_count > 0) lines.push('', 'read_file with start_line/end_line reads a definition.');
  return lines.join('\n') + pendingLine(out.freshness);
}
