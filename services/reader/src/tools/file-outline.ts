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
  // The lookups fetch the file's outline when they can, never its content.
  const located = await locate(deps, principal, { repository: input.repository, path: input.path, ref: input.ref }, 'file', 'outline');
  const { target, path } = located;
  if (path === '') throw invalid('path: give a file path, e.g. "src/index.ts"; to see the root, use list_files or repository_overview');
  const file = located.outline !== undefined ? located.outline : await deps.index.fileSymbols(target.snapshot, path);
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
  const base = resultChars(...answerParts(answer([], MAX_SIGNATURE_CHARS)));
  // Most outlines fit whole: built once and measured once, unless they surely cannot fit.
  if (base + leastChars(definitions) <= deps.limits.maxResultChars) {
    const whole = answer(definitions, MAX_SIGNATURE_CHARS);
    if (fits(whole)) return whole;
  }
  // Too many definitions for one answer (a generated or very long file): shorter signatures,
  // and the first definitions in file order whose estimated cost fits, checked once built.
  let count = 0;
  for (let used = base; count < definitions.length; count += 1) {
    const cost = shortCharsOf(definitions[count] as SymbolDefinition);
    if (used + cost > deps.limits.maxResultChars) break;
    used += cost;
  }
  let result = answer(definitions.slice(0, count), SHORT_SIGNATURE_CHARS);
  while (count > 0 && !fits(result)) {
    count = Math.floor(count * 0.9);
    result = answer(definitions.slice(0, count), SHORT_SIGNATURE_CHARS);
  }
  return result;
}

function answerParts(a: ToolAnswer<FileOutlineOutput>): [string, FileOutlineOutput] {
  return [a.text, a.structured];
}

/**
 * The fewest characters the definitions add to an answer: each one's JSON node has at least its
 * keys (about 60 characters) and its name, kind and signature, and its line of text has them
 * again. Counted without building anything, so an outline too large to fit is never built whole.
 */
function leastChars(definitions: readonly SymbolDefinition[]): number {
  let total = 0;
  for (const d of definitions) total += 60 + 2 * (d.name.length + d.kind.length + d.signature.length);
  return total;
}

/**
 * What a definition adds to an answer with its signature cut to SHORT_SIGNATURE_CHARS, in
 * characters: its node as JSON (with an empty children list and a separating comma) and its line
 * of text (indented a little, as nested). An estimate that lets one build pick how many fit
 * instead of building the answer many times.
 */
function shortCharsOf(d: SymbolDefinition): number {
  const signature = cutText(d.signature, SHORT_SIGNATURE_CHARS);
  const node = JSON.stringify({ name: d.name, kind: d.kind, line: d.line, end_line: d.endLine, signature, children: [] }).length + 1;
  const line = `${d.line}-${d.endLine} ${d.kind} ${d.name}: ${signature}`.length + 8;
  return node + line;
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
