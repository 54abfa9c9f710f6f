// An upstream answer's body as the bytes undici received, and their text.
import type { Dispatcher } from 'undici';
import { malformedUpstreamBody } from '../errors/codes.ts';

/**
 * The answer's chunks, at most `limit` bytes in all: a larger answer is refused as malformed as
 * soon as its Content-Length, or its running count without one, says so. The chunks are undici's
 * views of the socket's read buffers (node trims each to what was read), so collecting them
 * copies nothing, where undici's `body.bytes()` copies every answer into a new buffer only for it
 * to be decoded once and dropped (a cursor page is not even decoded whole: page-scan.ts).
 */
export function readChunks(
  body: Dispatcher.ResponseData['body'],
  contentLength: string | string[] | undefined,
  limit: number,
): Promise<Buffer[]> {
  const declared = typeof contentLength === 'string' ? Number(contentLength) : Number.NaN;
  if (declared > limit) {
    // Destroying the body emits the abort as an 'error', which unheard would end the process.
    body.on('error', () => {});
    body.destroy();
    return Promise.reject(malformedUpstreamBody());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        reject(malformedUpstreamBody());
        return;
      }
      chunks.push(chunk);
    });
    let ended = false;
    body.on('end', () => {
      ended = true;
      resolve(chunks);
    });
    body.on('error', reject);
    // Destroyed without an error (undici aborts with one; this is the fallback). 'close' follows
    // every 'end' too: an Error made there regardless, stack and all, was 2.7 % of the combined
    // view's CPU (--cpu-prof).
    body.on('close', () => {
      if (!ended) reject(new Error('upstream body closed before its end'));
    });
  });
}

/** The chunks as one UTF-8 string; a single chunk (the usual case) is decoded where it lies. */
export function decodeUtf8(chunks: readonly Buffer[]): string {
  if (chunks.length === 1) return chunks[0]!.toString('utf8');
  return Buffer.concat(chunks).toString('utf8');
}
