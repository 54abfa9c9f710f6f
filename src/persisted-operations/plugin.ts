// Persisted operations: a request may name its document instead of sending it, by
// `extensions.persistedQuery.sha256Hash` (Apollo's automatic persisted queries, APQ) or by
// `documentId` (the GraphQL-over-HTTP draft; in the body or the query string).
// - A known id runs the manifest's document.
// - An unknown id with no text is PERSISTED_QUERY_NOT_FOUND (APQ clients then send the text).
// - Not in safelist mode: an APQ id with its text runs the text once the hash is checked, and
//   is remembered once the text has parsed and validated within the limits (a memory bounded in
//   entries and bytes per process: apq-limits.ts), so the client's next request needs only the
//   id. A text that fails to parse is never stored, so registrations cannot fill memory with them.
//   With REDIS_URL
//   registrations are shared by every process and outlive restarts, within the same bounds for
//   the whole fleet (shared-state/apq-store.ts).
// - Safelist mode (PERSISTED_OPERATIONS_ONLY): only the manifest's documents run. Any other text
//   is PERSISTED_QUERY_ONLY, and nothing is remembered. Either refusal is made before parsing,
//   so it costs no upstream call.
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { BoundedCache, stringBytes } from '../core/bounded-cache.ts';
import { badUserInput, codedError } from '../errors/codes.ts';
import { APQ_LIMITS } from './apq-limits.ts';
import { type PersistedManifest, sha256 } from './manifest.ts';

export interface PersistedOperationsOptions {
  manifest: PersistedManifest | null;
  only: boolean;
  /** Registrations shared with other processes (REDIS_URL): asked when this process knows no text. */
  shared?: { get(id: string): Promise<string | null>; set(id: string, text: string): void } | null;
}

type Params = GraphQLParams & { documentId?: unknown };

/** The id a request names, and whether it came by APQ (whose id is the text's SHA-256). */
function requestedId(params: Params, request: Request): { id: string; apq: boolean } | null {
  const persisted = (params.extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } })
    ?.persistedQuery;
  if (persisted && persisted.version === 1 && typeof persisted.sha256Hash === 'string') {
    return { id: persisted.sha256Hash, apq: true };
  }
  const documentId =
    typeof params.documentId === 'string'
      ? params.documentId
      : // Parsed only when it may be there: most GETs are plain queries.
        request.method === 'GET' && request.url.includes('documentId=')
        ? new URL(request.url).searchParams.get('documentId')
        : null;
  return documentId ? { id: documentId, apq: false } : null;
}

const notFound = (id: string) =>
  codedError(
    'PERSISTED_QUERY_NOT_FOUND',
    `PersistedQueryNotFound: no persisted operation has the id ${JSON.stringify(id.slice(0, 80))}.`,
  );

const onlyPersisted = () =>
  codedError(
    'PERSISTED_QUERY_ONLY',
    'This gateway runs only persisted operations: send the id of one (extensions.persistedQuery or documentId), not a query text.',
  );

/** The params as yoga's executor takes them (it knows no documentId). */
function withoutDocumentId(params: Params): GraphQLParams {
  const { documentId: _, ...rest } = params;
  return rest;
}

export function usePersistedOperations({ manifest, only, shared }: PersistedOperationsOptions): Plugin {
  const remembered = new BoundedCache<string>(APQ_LIMITS, stringBytes);
  /** APQ registrations waiting for their text to parse and validate. */
  const pending = new WeakMap<Request, { id: string; query: string }>();
  const documentOf = (id: string) => manifest?.document(id) ?? remembered.get(id);

  return {
    onParams({ params, request, setParams }) {
      const given = params as Params;
      const requested = requestedId(given, request);
      if (requested === null) {
        if (only && !(given.query && manifest?.holds(given.query))) throw onlyPersisted();
        if (given.documentId !== undefined) setParams(withoutDocumentId(given));
        return undefined;
      }
      const rest = withoutDocumentId(given);
      const { id, apq } = requested;
      const document = documentOf(id);
      if (document === undefined && apq && !given.query && shared && !only) {
        // Registered on another process (or before a restart): remembered here from now on. A
        // promise only on this path: every other request stays synchronous.
        return shared.get(id).then((text) => {
          if (text === null || sha256(text) !== id) throw notFound(id);
          remembered.set(id, text);
          setParams({ ...rest, query: text });
        });
      }
      if (document !== undefined) {
        setParams({ ...rest, query: document });
        return undefined;
      }
      if (!given.query || only) throw notFound(id);
      if (apq) {
        // APQ registration: the text must be what its hash says before it is remembered.
        if (sha256(given.query) !== id) {
          throw badUserInput('extensions.persistedQuery.sha256Hash is not the SHA-256 of the query sent.');
        }
        pending.set(request, { id, query: given.query });
      }
      setParams(rest);
      return undefined;
    },
    onValidate({ context }) {
      const request = (context as { request?: Request }).request;
      const registration = request && pending.get(request);
      if (!registration) return undefined;
      return ({ valid }) => {
        if (!valid) return;
        remembered.set(registration.id, registration.query);
        shared?.set(registration.id, registration.query);
      };
    },
  };
}
