// One JSON log line per GraphQL operation: its request id, name and type, how long it took, the
// upstream calls it made (count and statuses) and the error codes it answered; and one line per
// masked error, with its detail and the same request id. No header, key, cookie, variable or
// upstream body is ever logged; pino's redaction is a second line of defence.
import type { GraphQLError } from 'graphql';
import { type Logger, pino } from 'pino';
import type { FinishedOperation, OperationListener } from './operation-record.ts';
import { stdoutBatches } from './stdout-batches.ts';

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      // Explicit paths: a wildcard (`*.authorization`) makes pino walk every line.
      // The objects logged here are the operation line and `{ error: { message, stack } }`.
      redact: {
        paths: [
          'authorization',
          'headers',
          'cookie',
          'variables',
          'request',
          'error.authorization',
          'error.headers',
          'error.cookie',
          'error.variables',
          'error.request',
        ],
        censor: '[redacted]',
      },
    },
    // stdout in batches written asynchronously, each line within a second (stdout-batches.ts);
    // main.ts flushes it on shutdown, and it is written synchronously at exit.
    (destination as pino.DestinationStream | undefined) ?? stdoutBatches(),
  );
}

/**
 * The errors masked as INTERNAL_SERVER_ERROR, each with what it hid: yoga's maskError knows no
 * request, so the detail is logged when the operation is, with the operation's request id.
 */
export type MaskedErrors = WeakMap<GraphQLError, unknown>;

/**
 * The operation line, written as pino would write `logger.info({...}, 'graphql operation')` but
 * by hand: its shape is fixed and holds nothing that needs redacting, and pino's generic
 * serialisation of it costs more than it needs to on every operation (docs/performance.md).
 */
function operationLine(operation: FinishedOperation, statuses: string): string {
  const codes =
    operation.errors.length === 0
      ? '[]'
      : JSON.stringify(operation.errors.map((e) => String(e.extensions?.code ?? 'UNKNOWN')));
  // The request id is letters, digits and `._:-` (request-id.ts), the type a keyword: neither
  // needs escaping. The name is escaped unless it is a GraphQL name.
  const name = operation.name === null ? 'null' : quoteName(operation.name);
  const type = operation.type === null ? 'null' : `"${operation.type}"`;
  return `{"level":30,"time":${Date.now()},"requestId":"${operation.requestId}","operation":${name},"type":${type},"durationMs":${Math.round(operation.durationMs * 10) / 10},"upstream":{"calls":${operation.calls?.calls ?? 0},"attempts":${operation.calls?.attempts.length ?? 0},"statuses":${statuses}},"errors":${codes},"msg":"graphql operation"}\n`;
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const quoteName = (name: string) => (GRAPHQL_NAME.test(name) ? `"${name}"` : JSON.stringify(name));

/** `{"200":2,"503":1}`: how many attempts ended with each status ("failed": no answer). */
function statusCounts(operation: FinishedOperation): string {
  const attempts = operation.calls?.attempts;
  if (!attempts || attempts.length === 0) return '{}';
  // Most operations' attempts all end alike: their line is written without a map of counts.
  const first = attempts[0]!.status;
  if (attempts.every((attempt) => attempt.status === first))
    return `{"${first ?? 'failed'}":${attempts.length}}`;
  const counts: Record<string, number> = {};
  for (const attempt of attempts) {
    const key = String(attempt.status ?? 'failed');
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return JSON.stringify(counts);
}

export function logOperation(logger: Logger, masked: MaskedErrors): OperationListener {
  const destination = (logger as unknown as Record<symbol, { write(line: string): void }>)[
    pino.symbols.streamSym
  ]!;
  return (operation) => {
    for (const error of operation.errors) {
      const hidden = masked.get(error) as Error | undefined;
      if (hidden === undefined) continue;
      logger.error(
        { requestId: operation.requestId, error: { message: hidden?.message, stack: hidden?.stack } },
        'unexpected error',
      );
    }
    if (logger.isLevelEnabled('info')) destination.write(operationLine(operation, statusCounts(operation)));
  };
}
