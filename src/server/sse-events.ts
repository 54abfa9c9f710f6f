// The bytes of graphql-sse's distinct connections mode: a ping (a comment line), `event: next`
// per result, `event: complete` at the end. Each result's event is made once, however many
// streams write it.
import type { ExecutionResult, GraphQLError } from 'graphql';

export const PING = Buffer.from(':\n\n');
export const COMPLETE = Buffer.from('event: complete\ndata:\n\n');

/** `extensions.http` and `unexpected` say how to answer, not what: yoga leaves them out too. */
function withoutInternals(error: GraphQLError): unknown {
  const json = typeof error.toJSON === 'function' ? error.toJSON() : error;
  if (!json.extensions) return json;
  const { http: _http, unexpected: _unexpected, ...extensions } = json.extensions as Record<string, unknown>;
  return { ...json, extensions: Object.keys(extensions).length ? extensions : undefined };
}

const eventBytes = new WeakMap<object, Buffer>();

/** `event: next` with the result, made once per result object. */
export function nextEvent(result: ExecutionResult): Buffer {
  let bytes = eventBytes.get(result);
  if (!bytes) {
    const stringify = (result as { stringify?: (value: unknown) => string }).stringify ?? JSON.stringify;
    const { http: _http, ...extensions } = result.extensions ?? {};
    const sanitized =
      result.errors?.length || result.extensions?.http
        ? {
            ...result,
            errors: result.errors?.map(withoutInternals),
            extensions: Object.keys(extensions).length ? extensions : undefined,
          }
        : result;
    bytes = Buffer.from(`event: next\ndata: ${stringify(sanitized)}\n\n`);
    eventBytes.set(result, bytes);
  }
  return bytes;
}
