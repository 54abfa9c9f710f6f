// What a caller sees of an error. Expected failures are GraphQLErrors with a stable
// `extensions.code` and pass through; a GraphQL error raised about the request rather than by
// a resolver (a syntax or validation error, a variable of the wrong type) is the caller's
// input, so it gets BAD_USER_INPUT; anything else is a bug, masked as INTERNAL_SERVER_ERROR
// with no detail (the detail goes to the log).
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { listChoices, upstreamChoices, withEnumChoices } from './choices.ts';
import { ERROR_CODES, type ErrorCode } from './codes.ts';

const KNOWN_CODES = new Set<unknown>(ERROR_CODES);

/** Told of every error masked: what it was, and the masked error the caller gets instead. */
export type UnexpectedErrorReporter = (error: unknown, masked: GraphQLError) => void;

/** The same error, located where it was, with other extensions (and another message). */
export function withExtensions(
  error: GraphQLError,
  extensions: Record<string, unknown>,
  message = error.message,
): GraphQLError {
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions,
  });
}

/** The same error, located where it was, with one of the stable codes. */
const withCode = (error: GraphQLError, code: ErrorCode) =>
  withExtensions(error, { ...error.extensions, code });

/** An upstream refusal of a choice, with the choices when the gateway knows them (choices.ts). */
function withUpstreamChoices(error: GraphQLError): GraphQLError {
  const choices = upstreamChoices(error.path, error.extensions);
  return choices ? withExtensions(error, error.extensions, listChoices(error.message, choices)) : error;
}

/**
 * yoga's maskError; what it masks goes to `reportUnexpected` (the log), never to the caller.
 * `schema`: where a value not in an enum finds the enum's values.
 */
export const createMaskError =
  (reportUnexpected: UnexpectedErrorReporter, schema?: GraphQLSchema) =>
  (error: unknown): Error => {
    if (error instanceof GraphQLError) {
      if (KNOWN_CODES.has(error.extensions?.code)) return withUpstreamChoices(error);
      const original = error.originalError;
      if (error.path === undefined && (original == null || original instanceof GraphQLError)) {
        // Raised by graphql-js or yoga about the request itself (its syntax, a variable that does
        // not coerce, its HTTP method), not by a resolver.
        return asRequestError(error, schema);
      }
    }
    const located = error instanceof GraphQLError ? error : null;
    const masked = new GraphQLError('Unexpected error.', {
      nodes: located?.nodes,
      path: located?.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    reportUnexpected(error, masked);
    return masked;
  };

/** graphql-js and yoga's own codes for a request they refused; to callers, that is bad input. */
const REQUEST_ERROR_CODES = new Set(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED', 'BAD_REQUEST']);

/** Protocol refusals are not bad input: they say what was wrong with the HTTP request. */
const PROTOCOL_CODES: Record<number, ErrorCode> = {
  405: 'METHOD_NOT_ALLOWED',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/**
 * An error about the request itself: a protocol refusal by its HTTP status, else bad input (a
 * value not in an enum then lists the enum's values).
 */
function asRequestError(error: GraphQLError, schema?: GraphQLSchema): GraphQLError {
  const status = (error.extensions?.http as { status?: number } | undefined)?.status;
  const code = (status !== undefined && PROTOCOL_CODES[status]) || 'BAD_USER_INPUT';
  const listed = schema ? withEnumChoices(error.message, schema) : null;
  return listed ? withExtensions(error, { ...error.extensions, code }, listed) : withCode(error, code);
}

function withStableCode(error: GraphQLError, schema?: GraphQLSchema): GraphQLError {
  const code = error.extensions?.code;
  if (KNOWN_CODES.has(code)) return error;
  if (code !== undefined && !REQUEST_ERROR_CODES.has(code as string)) return error;
  return asRequestError(error, schema);
}

/**
 * Parse and validation errors skip maskError (yoga returns them before execution): this gives
 * them the contract's BAD_USER_INPUT too, so every error a caller sees has a code of the list.
 */
export function useStableErrorCodes(schema?: GraphQLSchema): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      const fix = (r: unknown) => {
        const errors = (r as { errors?: readonly GraphQLError[] } | null)?.errors;
        if (!errors?.length || !errors.every((e) => e instanceof GraphQLError)) return r;
        return { ...(r as object), errors: errors.map((e) => withStableCode(e, schema)) };
      };
      if (Array.isArray(result)) setResult(result.map(fix) as typeof result);
      else if (result && typeof result === 'object' && 'errors' in result)
        setResult(fix(result) as typeof result);
    },
  };
}
