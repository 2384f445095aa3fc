import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reported to MCP clients and in the OpenAPI document as the server version. It is read from
 * this workspace's package.json (beside dist/ in the image, beside src/ in a checkout), so a
 * release changes one place: the versions in the package.json files (CHANGELOG.md).
 */
export const READER_VERSION: string = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
