import { createHash } from 'node:crypto';
import { type FileDocument } from '@gitdex/contracts';
import { ancestorsOf, depthOf, extensionOf, folderOf, nameOf, pathTokens, trigramsOf } from '@gitdex/terms';
import { languageOf } from './classify/languages';
import { classifyPath, type PathRules } from './classify/vendored';
import { countLines } from './classify/content';
import { decodeContent, type DecodedContent } from './classify/encoding';

/** One tree entry with what was fetched of it. */
export interface FetchedEntry {
  path: string;
  /** Git mode: 100644/100755 file, 120000 symlink, 160000 submodule. */
  mode: string;
  blobSha: string;
  size: number;
  /** Undefined when the file is too large to store, or for a submodule. */
  content?: Buffer;
}

export interface DocumentContext {
  repositoryId: number;
  ref: string;
  commitSha: string;
  generation: number;
  maxFileBytes: number;
  rules?: PathRules;
}

export function gitBlobSha(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

export function kindOfMode(mode: string): FileDocument['kind'] {
  if (mode === '120000') return 'symlink';
  if (mode === '160000') return 'submodule';
  return 'file';
}

/** Turns a fetched tree entry into its index document: classification and derived path fields. */
export function buildDocument(entry: FetchedEntry, context: DocumentContext): FileDocument {
  const name = nameOf(entry.path);
  const extension = extensionOf(name);
  const kind = kindOfMode(entry.mode);
  const { language, category } = kind === 'file' ? languageOf(name, extension) : { language: null, category: 'other' as const };
  const { vendored, generated } = classifyPath(entry.path, context.rules);
  const tooLarge = kind === 'file' && entry.size > context.maxFileBytes;
  const content = entry.content;
  // Vendored and generated files are stored like any other (read fidelity); their flags rank and filter them.
  const decoded = kind === 'file' && content !== undefined && !tooLarge ? decodeContent(content) : null;
  const binary = decoded !== null && decoded.binary;
  const text = decoded !== null && !decoded.binary ? decoded.text : null;
  const bytes = kind === 'file' && content !== undefined && !tooLarge ? fileBytesFields(content, decoded) : {};
  const target = kind === 'symlink' && content ? content.toString('utf8') : kind === 'submodule' ? entry.blobSha : undefined;
  return {
    repositoryId: context.repositoryId,
    ref: context.ref,
    path: entry.path,
    folder: folderOf(entry.path),
    name,
    extension,
    language,
    category,
    kind,
    size: entry.size,
    lineCount: text === null ? null : countLines(text),
    blobSha: entry.blobSha,
    commitSha: context.commitSha,
    flags: { binary, vendored, generated, tooLarge },
    ...(target === undefined ? {} : { target }),
    content: text,
    ancestors: ancestorsOf(entry.path),
    depth: depthOf(entry.path),
    nameLower: name.toLowerCase(),
    pathLower: entry.path.toLowerCase(),
    tokens: pathTokens(entry.path),
    trigrams: trigramsOf(name),
    fromGeneration: context.generation,
    ...bytes,
  };
}

/** The read-fidelity fields of a stored file: its encoding and, when the text is not them, its bytes. */
function fileBytesFields(content: Buffer, decoded: DecodedContent | null): Pick<FileDocument, 'encoding' | 'bom' | 'contentBase64'> {
  if (decoded === null || decoded.binary) return { encoding: null, contentBase64: content.toString('base64') };
  return { encoding: decoded.encoding, ...(decoded.bom ? { bom: true } : {}), ...(decoded.utf8Exact ? {} : { contentBase64: content.toString('base64') }) };
}

/** Whether the content of an entry is worth fetching at all. */
export function wantsContent(entry: { mode: string; size: number; path: string }, context: DocumentContext): boolean {
  if (kindOfMode(entry.mode) === 'submodule') return false;
  if (kindOfMode(entry.mode) === 'symlink') return true;
  return entry.size <= context.maxFileBytes;
}
