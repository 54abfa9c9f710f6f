// Reads a POST body with a byte limit before anything parses it: a larger body is refused with
// 413 and QUERY_TOO_COMPLEX as soon as it is seen to be too large, without reading the rest.
import type { GraphQLParams } from 'graphql-yoga';
import { codedError } from '../errors/codes.ts';
import { tooComplex } from '../limits/too-complex.ts';

function errorResponse(
  status: number,
  error: { message: string; extensions: Record<string, unknown> },
): Response {
  return new Response(
    JSON.stringify({ errors: [{ message: error.message, extensions: error.extensions }] }),
    {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    },
  );
}

async function readLimited(request: Request, limit: number): Promise<string | Response> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) return errorResponse(413, tooComplex('bodyBytes', declared, limit));
  // A declared length within the limit is the whole body (node's HTTP parser delivers no more):
  // read it at once, without building a web stream over the request. Chunked bodies are counted
  // as they arrive.
  if (Number.isInteger(declared)) return request.text();
  const reader = request.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return errorResponse(413, tooComplex('bodyBytes', size, limit));
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const badRequest = (message: string) => errorResponse(400, codedError('BAD_USER_INPUT', message));

/** The POST body parser: JSON (or application/graphql) only, one operation, within `limit` bytes. */
export function limitedBodyParser(limit: number) {
  return async (request: Request): Promise<GraphQLParams | Response> => {
    const contentType = request.headers.get('content-type') ?? '';
    const text = await readLimited(request, limit);
    if (text instanceof Response) return text;
    if (/^application\/graphql(?!\+)/i.test(contentType)) return { query: text };
    if (!/^application\/(graphql-response\+)?json|^application\/graphql\+json/i.test(contentType)) {
      return errorResponse(
        415,
        codedError('UNSUPPORTED_MEDIA_TYPE', 'Send the request as application/json.'),
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return badRequest('The request body is not valid JSON.');
    }
    if (Array.isArray(body)) return badRequest('Batched operations are off: send one operation per request.');
    if (body === null || typeof body !== 'object')
      return badRequest('The request body must be a JSON object.');
    const { query, variables, operationName, extensions, documentId } = body as Record<string, unknown>;
    if (query !== undefined && typeof query !== 'string') return badRequest('`query` must be a string.');
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) {
      return badRequest('`variables` must be an object.');
    }
    if (operationName != null && typeof operationName !== 'string')
      return badRequest('`operationName` must be a string.');
    return {
      query: query as string | undefined,
      variables: (variables ?? undefined) as Record<string, unknown> | undefined,
      operationName: (operationName ?? undefined) as string | undefined,
      extensions: (extensions ?? undefined) as Record<string, unknown> | undefined,
      // A persisted operation's id (persisted-operations/plugin.ts); yoga is told it is a known parameter.
      ...(documentId != null ? { documentId } : {}),
    };
  };
}
