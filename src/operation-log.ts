// One JSON log line per GraphQL operation: its name and type, how long it took, the upstream
// calls it made (count and statuses) and the error codes it answered. No header, key, cookie,
// variable or upstream body is ever logged; pino's redaction is a second line of defence.
import type { GraphQLError } from 'graphql';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { type Logger, pino } from 'pino';
import type { GatewayContext, UpstreamCallLog } from './context.ts';

/**
 * stdout through a buffer written asynchronously: pino's default writes every line with a
 * blocking write(2), which under load costs more than the operation it logs (npm run bench).
 * main.ts flushes it on shutdown, and pino flushes it when the process exits.
 */
const bufferedStdout = () => pino.destination({ dest: 1, sync: false, minLength: 4096 });

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      // Explicit paths: a wildcard (`*.authorization`) made pino walk every line, 6 µs a line.
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
    (destination as pino.DestinationStream | undefined) ?? bufferedStdout(),
  );
}

interface OperationRecord {
  started: number;
  name: string | null;
  type: string | null;
  calls: UpstreamCallLog | null;
}

function errorCodes(result: unknown): string[] {
  const results = Array.isArray(result) ? result : [result];
  return results.flatMap((r) =>
    ((r as { errors?: readonly GraphQLError[] } | null)?.errors ?? []).map((e) =>
      String(e.extensions?.code ?? 'UNKNOWN'),
    ),
  );
}

export function useOperationLog(logger: Logger): Plugin<GatewayContext> {
  const operations = new WeakMap<Request, OperationRecord>();
  return {
    onRequest({ request }) {
      operations.set(request, { started: performance.now(), name: null, type: null, calls: null });
    },
    onParams({ request, params }) {
      const record = operations.get(request);
      if (record) record.name = params.operationName ?? null;
    },
    onExecute({ args }) {
      const context = args.contextValue as GatewayContext & { request: Request };
      const record = operations.get(context.request);
      if (!record) return;
      const operation = getOperationAST(args.document, args.operationName);
      record.name = operation?.name?.value ?? record.name;
      record.type = operation?.operation ?? null;
      record.calls = context.calls;
    },
    onResultProcess({ request, result }) {
      const record = operations.get(request);
      if (!record || request.method === 'OPTIONS') return;
      operations.delete(request);
      const statuses: Record<string, number> = {};
      for (const attempt of record.calls?.attempts ?? []) {
        const key = String(attempt.status ?? 'failed');
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
      logger.info(
        {
          operation: record.name,
          type: record.type,
          durationMs: Math.round((performance.now() - record.started) * 10) / 10,
          upstream: {
            calls: record.calls?.calls ?? 0,
            attempts: record.calls?.attempts.length ?? 0,
            statuses,
          },
          errors: errorCodes(result),
        },
        'graphql operation',
      );
    },
  };
}
