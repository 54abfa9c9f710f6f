// What every GraphQL operation leaves behind once answered: its name and type, how long it
// took, the upstream calls it made and the errors it answered. One plugin gathers it; the
// operation log, the metrics and the trace each take it from there, so the hooks run once.
import type { GraphQLError } from 'graphql';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext, UpstreamCallLog } from '../context.ts';
import { requestIdOf } from './request-id.ts';

export interface FinishedOperation {
  request: Request;
  requestId: string;
  /** The operation's name as the document gives it (or the request's operationName). */
  name: string | null;
  /** query, mutation or subscription; null when the request never reached execution. */
  type: string | null;
  durationMs: number;
  calls: UpstreamCallLog | null;
  errors: readonly GraphQLError[];
  /** Whether the answer has `data` (so errors with data are a partial answer). */
  hasData: boolean;
}

export type OperationListener = (operation: FinishedOperation) => void;

interface OperationRecord {
  started: number;
  name: string | null;
  type: string | null;
  calls: UpstreamCallLog | null;
}

function answers(result: unknown): { errors: GraphQLError[]; hasData: boolean } {
  const results = Array.isArray(result) ? result : [result];
  const errors: GraphQLError[] = [];
  let hasData = false;
  for (const r of results as ({ errors?: readonly GraphQLError[]; data?: unknown } | null)[]) {
    if (r?.errors) errors.push(...r.errors);
    if (r?.data != null) hasData = true;
  }
  return { errors, hasData };
}

export function useOperationRecords(listeners: readonly OperationListener[]): Plugin<GatewayContext> {
  const operations = new WeakMap<Request, OperationRecord>();
  return {
    onRequest({ request }) {
      operations.set(request, { started: performance.now(), name: null, type: null, calls: null });
    },
    onParams({ request, params }) {
      const record = operations.get(request);
      if (record) record.name = params.operationName ?? null;
    },
    // Named and typed once parsed, so that an operation a limit refuses before execution
    // still counts as the query or mutation it was.
    onParse({ context }) {
      const record = operations.get((context as { request: Request }).request);
      if (!record) return;
      return ({ result }) => {
        if (!result || result instanceof Error || !('kind' in result)) return;
        const operation = getOperationAST(result, record.name);
        record.name = operation?.name?.value ?? record.name;
        record.type = operation?.operation ?? null;
      };
    },
    onExecute({ args }) {
      const context = args.contextValue as GatewayContext & { request: Request };
      const record = operations.get(context.request);
      if (record) record.calls = context.calls;
    },
    onResultProcess({ request, result }) {
      const record = operations.get(request);
      if (!record || request.method === 'OPTIONS') return;
      operations.delete(request);
      const finished: FinishedOperation = {
        request,
        requestId: requestIdOf(request),
        name: record.name,
        type: record.type,
        durationMs: performance.now() - record.started,
        calls: record.calls,
        ...answers(result),
      };
      for (const listener of listeners) listener(finished);
    },
  };
}
