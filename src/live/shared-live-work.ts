// Identical live work done once: subscriptions and `@live` queries with the same document,
// operation, variables and key (its hash, caller-key.ts) share one SharedStream
// (shared-streams.ts), run in a context of its own (context.ts, createSharedContext) so that it
// outlives the request that started it. Different keys or variables never share one: what one
// caller's key fetched is never handed to another.
//
// A subscription resumed from a point (`after` given) is its subscriber's own: what it missed is
// read for it alone. Every subscriber takes a slot of its own (subscription-slots.ts): what
// MAX_SUBSCRIPTIONS bounds is what a process holds, one open stream per subscriber.
import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  getOperationAST,
  Kind,
  type OperationDefinitionNode,
  print,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { hashKey } from '../caller-key.ts';
import type { GatewayContext } from '../context.ts';
import { withPending } from '../errors/partial-errors.ts';
import { isLiveQuery } from './live-queries.ts';
import type { LiveServices } from './services.ts';
import { SharedStream, Subscriber } from './shared-streams.ts';

type Run = (args: ExecutionArgs) => unknown;

/** The context a shared stream runs in, made from the request of its first subscriber. */
export type SharedContextFor = (request: Request) => GatewayContext;

/** A document's text: the source it was parsed from, else printed (once per document). */
const texts = new WeakMap<DocumentNode, string>();
function textOf(document: DocumentNode): string {
  let text = texts.get(document);
  if (text === undefined) {
    text = document.loc?.source.body ?? print(document);
    texts.set(document, text);
  }
  return text;
}

/** JSON with object keys sorted: the same variables however the client ordered them. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/** Whether the operation's root field is resumed from a point (`after` given, not null). */
function resumesFromAPoint(operation: OperationDefinitionNode, variables: Record<string, unknown>): boolean {
  return operation.selectionSet.selections.some(
    (selection) =>
      selection.kind === Kind.FIELD &&
      selection.arguments?.some((argument) => {
        if (argument.name.value !== 'after') return false;
        const { value } = argument;
        if (value.kind === Kind.VARIABLE) return variables[value.name.value] != null;
        return value.kind !== Kind.NULL;
      }),
  );
}

export class SharedLiveWork {
  private readonly streams = new Map<string, SharedStream>();

  constructor(
    private readonly live: LiveServices,
    private readonly sharedContext: SharedContextFor,
  ) {}

  /** Streams running now (tests, metrics). */
  get streamCount(): number {
    return this.streams.size;
  }

  /**
   * The subscriber's stream of `run(args)`'s results, shared with those of the same key and
   * operation; `run` is called once per stream, with the shared context.
   */
  open(args: ExecutionArgs, run: Run, replayLast: boolean): Subscriber | null {
    const context = args.contextValue as GatewayContext & { request?: Request };
    const operation = getOperationAST(args.document, args.operationName);
    if (!context.authorization || !context.request || !operation) return null;
    const { request } = context;
    const key = hashKey(context.authorization);
    const variables = (args.variableValues ?? {}) as Record<string, unknown>;
    const id = resumesFromAPoint(operation, variables)
      ? null
      : [key, args.operationName ?? '', textOf(args.document), canonicalJson(variables)].join('\n');
    let release: (() => void) | null = null;
    let stream: SharedStream | null = null;
    return new Subscriber(
      async (subscriber) => {
        const reservation = await this.live.slots.reserve(key);
        if (subscriber.left) return;
        release = reservation.take();
        stream = this.streamFor(id, args, run, request, replayLast);
        stream.add(subscriber);
      },
      (subscriber) => {
        release?.();
        stream?.remove(subscriber);
      },
    );
  }

  private streamFor(
    id: string | null,
    args: ExecutionArgs,
    run: Run,
    request: Request,
    replayLast: boolean,
  ): SharedStream {
    const running = id === null ? undefined : this.streams.get(id);
    if (running && !running.ended) return running;
    const context = this.sharedContext(request);
    const stream: SharedStream = new SharedStream({
      start: () => run({ ...args, contextValue: context }) as never,
      replayLast,
      // Recorded on the shared context by the run: usePartialErrors reads each subscriber's own.
      prepare: (result: ExecutionResult) => withPending(result, context.partialErrors) ?? result,
      onEnd: () => {
        if (id !== null && this.streams.get(id) === stream) this.streams.delete(id);
        context.end();
      },
    });
    if (id !== null) this.streams.set(id, stream);
    return stream;
  }
}

/**
 * Last among the plugins that set how an operation runs (after live-queries.ts and jit.ts), so
 * that what is shared is the whole run.
 */
export function useSharedLiveWork(shared: SharedLiveWork): Plugin {
  return {
    onSubscribe({ subscribeFn, setSubscribeFn }) {
      setSubscribeFn((subscribeArgs) => {
        const subscriber = shared.open(subscribeArgs, subscribeFn as Run, false);
        return (subscriber ?? subscribeFn(subscribeArgs)) as never;
      });
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      if (!isLiveQuery(getOperationAST(args.document, args.operationName))) return;
      setExecuteFn((executeArgs) => {
        const subscriber = shared.open(executeArgs, executeFn as Run, true);
        return (subscriber ?? executeFn(executeArgs)) as never;
      });
    },
  };
}
