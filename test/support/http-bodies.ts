// Whole bodies of HTTP messages, for the test fronts that hold a request or an answer before
// passing it on (round-robin.ts, the engine proxy of index-store-elasticsearch.test.ts).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

export interface WholeAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Every byte of a message's body, once it has ended. */
export function readBody(message: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => resolve(Buffer.concat(chunks)));
    message.on('error', reject);
  });
}

/** An answer with its whole body. */
export async function wholeAnswer(answer: IncomingMessage): Promise<WholeAnswer> {
  return { status: answer.statusCode ?? 502, headers: answer.headers, body: await readBody(answer) };
}
