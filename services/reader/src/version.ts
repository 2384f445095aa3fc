/** Reported to MCP clients as the server version. */
export const READER_VERSION = '0.1.0';
