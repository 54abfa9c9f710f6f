// One id per HTTP request, so that a failing call can be followed end to end: the caller's
// `x-request-id` when it is a sane value (what a load balancer or the frontend already set),
// else a new UUID. It is answered in `x-request-id`, written in the operation log line and in
// masked-error lines, set on the operation's trace span, and sent upstream with every call.
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Letters, digits and `._:-`, at most 128: a value safe to log, label and forward as it is. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const ids = new WeakMap<Request, string>();

/** The request's id, the same for every part of the gateway that asks. */
export function requestIdOf(request: Request): string {
  let id = ids.get(request);
  if (id === undefined) {
    const given = request.headers.get(REQUEST_ID_HEADER);
    id = given !== null && SANE_REQUEST_ID.test(given) ? given : randomUUID();
    ids.set(request, id);
  }
  return id;
}

/** Every answer carries the request's id, whatever answered it (GraphQL, GraphiQL, /health). */
export function useRequestId(): Plugin {
  return {
    onResponse({ request, response }) {
      response.headers.set(REQUEST_ID_HEADER, requestIdOf(request));
    },
  };
}
