// Request bodies as DRF's parsers read them: JSON, urlencoded forms and multipart forms. A form
// field's value is always a string; which fields then hold JSON is the serializer's business.
import type { IncomingMessage } from 'node:http';
import { ApiError, validationError } from './api-error.ts';

const MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface ParsedBody {
  kind: 'none' | 'json' | 'form';
  data: Record<string, unknown>;
}

export async function readBody(req: IncomingMessage): Promise<ParsedBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      throw new ApiError(413, 'invalid_request', 'request_too_large', 'Request body is too large.');
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks);
  if (raw.length === 0) return { kind: 'none', data: {} };
  const contentType = req.headers['content-type'] ?? '';
  if (/^application\/json/i.test(contentType)) return { kind: 'json', data: parseJson(raw.toString('utf8')) };
  if (/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(contentType)) {
    return { kind: 'form', data: await parseForm(raw, contentType) };
  }
  throw new ApiError(
    415,
    'invalid_request',
    'unsupported_media_type',
    `Unsupported media type "${contentType}" in request.`,
  );
}

function parseJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(
      400,
      'invalid_request',
      'parse_error',
      `JSON parse error - ${(error as Error).message}`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw validationError(null, 'invalid_input', 'Invalid data. Expected a dictionary, but got list.');
  }
  return value as Record<string, unknown>;
}

async function parseForm(raw: Buffer, contentType: string): Promise<Record<string, unknown>> {
  // The platform's Request parses both form encodings; only string fields matter here.
  let form: FormData;
  try {
    form = await new Request('http://reference.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(raw),
    }).formData();
  } catch {
    throw new ApiError(
      400,
      'invalid_request',
      'parse_error',
      'Multipart form parse error - Invalid boundary.',
    );
  }
  const data: Record<string, unknown> = {};
  for (const [key, value] of form) if (typeof value === 'string') data[key] = value;
  return data;
}
