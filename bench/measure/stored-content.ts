/**
 * What storing every file byte for byte costs the index (read fidelity): the content bytes
 * documents of the large corpus hold when only plain text files keep content (before) and
 * when generated, vendored, binary and non-UTF-8 files keep theirs too (after: binary and
 * non-UTF-8 bytes in base64, 4/3 of their size, non-UTF-8 text also decoded).
 *
 *   npx tsx --tsconfig bench/tsconfig.json bench/measure/stored-content.ts [files]
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyPath } from '../../services/indexer/src/classify/vendored';
import { decodeContent } from '../../services/indexer/src/classify/encoding';
import { largeCorpus } from '../data/corpora';

const limit = Number(process.argv[2] ?? 55_000);
const corpus = largeCorpus(limit, { workDir: mkdtempSync(join(tmpdir(), 'gitdex-stored-')) });
const totals = { files: 0, bytes: 0, before: 0, after: 0, vendoredOrGenerated: 0, binary: 0, otherEncodings: 0 };
for (const file of corpus.files) {
  const bytes = readFileSync(file.abs);
  const { vendored, generated } = classifyPath(file.path);
  const decoded = decodeContent(bytes);
  totals.files += 1;
  totals.bytes += bytes.length;
  const text = decoded.binary ? 0 : Buffer.byteLength(decoded.text);
  if (!vendored && !generated && !decoded.binary && decoded.encoding === 'utf-8') totals.before += text;
  const base64 = decoded.binary || !decoded.utf8Exact ? Math.ceil(bytes.length / 3) * 4 : 0;
  totals.after += text + base64;
  if (vendored || generated) totals.vendoredOrGenerated += 1;
  if (decoded.binary) totals.binary += 1;
  else if (decoded.encoding !== 'utf-8') totals.otherEncodings += 1;
}
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
process.stdout.write(
  `${corpus.description}\n${totals.files} files, ${mib(totals.bytes)}: ${totals.vendoredOrGenerated} vendored or generated, ${totals.binary} binary, ${totals.otherEncodings} in another encoding\n` +
    `content stored before: ${mib(totals.before)}; after: ${mib(totals.after)} (+${(((totals.after - totals.before) / totals.before) * 100).toFixed(1)} %)\n`,
);
