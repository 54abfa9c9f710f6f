// An upstream answer's body as text, from the bytes undici received (exchange.ts).

/** The chunks as one UTF-8 string; a single chunk (the usual case) is decoded where it lies. */
export function decodeUtf8(chunks: readonly Buffer[]): string {
  if (chunks.length === 1) return chunks[0]!.toString('utf8');
  return Buffer.concat(chunks).toString('utf8');
}
