/** A UTF-8 byte-order mark: kept out of `content`, put back by storedBytes. */
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The exact bytes of a stored file version (see FileBytesFields in contracts). */
export function storedBytes(file: { content: string | null; contentBase64?: string | undefined; bom?: boolean | undefined }): Buffer | null {
  if (file.contentBase64 !== undefined) return Buffer.from(file.contentBase64, 'base64');
  if (file.content === null) return null;
  const text = Buffer.from(file.content, 'utf8');
  return file.bom ? Buffer.concat([UTF8_BOM, text]) : text;
}
