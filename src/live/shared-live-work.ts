// Identical live work done once: subscriptions and `@live` queries with the same document,
// operation, variables and key (its hash, core/caller-key.ts) share one SharedStream
// (shared-streams.ts). Different keys or variables never share one: what one caller's key
// fetched is never handed to another.
//
// The stream's run is the first subscriber's request sent again through the gateway's own
// pipeline, as the WebSocket transport sends an operation (relayed-results.ts): it meets every
// limit and plugin, is logged as an operation of its own, and outlives that first subscriber. Its
// results come out of the pipeline finished (masked, coded, with partial errors), so an SSE
// subscriber's stream is written straight from its Subscriber (sse-writer.ts): what it holds
// beyond its connection is its place in the stream, not a request pipeline per subscriber.
//
// A subscription resumed from a point (`after` given) is its subscriber's own: what it missed is
// read for it alone. Every subscriber takes a slot of its own (subscription-slots.ts): what
// MAX_SUBSCRIPTIONS bounds is what a process holds, one open stream per subscriber.
import {
  type DocumentNode,
  type ExecutionArgs,
  getOperationAST,
  Kind,
  print,
  type ValueNode,
  visit,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.ts';
import { hashKey, type KeyHash } from '../core/caller-key.ts';
import { codedError } from '../errors/codes.ts';
import { requestIdOf } from '../observability/request-id.ts';
import { type RelayContext, type RelaySlot, requestFor } from '../server/relayed-results.ts';
import { isLiveQuery } from './live-queries.ts';
import { LiveRefresh } from './live-refresh.ts';
import type { LiveServices } from './services.ts';
import { SharedStream, Subscriber } from './shared-streams.ts';

/** What a shared stream's run is sent through: the gateway's own fetch handler. */
export interface Pipeline {
  graphqlEndpoint: string;
  fetch(request: Request, context: RelayContext): Response | Promise<Response>;
}

/** What yoga's context holds besides the gateway's: the request and its GraphQL parameters. */
type SubscriberContext = GatewayContext & RelayContext & { request?: Request; params?: unknown };

/** Each SSE subscriber's own stream, by its request: what sse-writer.ts writes. */
const subscribers = new WeakMap<Request, Subscriber>();

/** The request's place in a shared stream, if it has one. */
export const subscriberOf = (request: Request): Subscriber | undefined => subscribers.get(request);

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

/**
 * Whether a subscription resumes from a point: an `after` argument anywhere in the document
 * (fragments included) that is not null, as given or by its variable's default. Erring towards
 * yes only costs sharing; a resumed subscription joining a stream would miss its catch-up.
 */
export function resumesFromAPoint(document: DocumentNode, variables: Record<string, unknown>): boolean {
  const defaults = new Map<string, ValueNode>();
  let resumes = false;
  visit(document, {
    VariableDefinition(definition) {
      if (definition.defaultValue) defaults.set(definition.variable.name.value, definition.defaultValue);
    },
  });
  visit(document, {
    Argument(argument) {
      if (argument.name.value !== 'after' || resumes) return;
      const { value } = argument;
      if (value.kind !== Kind.VARIABLE) resumes = value.kind !== Kind.NULL;
      else if (variables[value.name.value] !== undefined) resumes = variables[value.name.value] !== null;
      else resumes = (defaults.get(value.name.value)?.kind ?? Kind.NULL) !== Kind.NULL;
    },
  });
  return resumes;
}

export class SharedLiveWork {
  private readonly streams = new Set<SharedStream>();
  private readonly byId = new Map<string, SharedStream>();
  private pipeline: Pipeline | null = null;
  private closed = false;

  constructor(private readonly live: LiveServices) {
    // Shutdown: every shared stream ends (its subscribers complete), and no new one starts.
    live.onClose(() => {
      this.closed = true;
      for (const stream of [...this.streams]) stream.close();
    });
  }

  /** The gateway whose pipeline runs the shared streams (made after this plugin). */
  runThrough(pipeline: Pipeline): void {
    this.pipeline = pipeline;
  }

  /** Streams running now (tests, metrics). */
  get streamCount(): number {
    return this.streams.size;
  }

  /**
   * The subscriber's stream of the operation's results, shared with those of the same key and
   * operation; null where the operation runs as it is (the shared run itself, no key).
   */
  open(args: ExecutionArgs, replayLast: boolean): Subscriber | null {
    const context = args.contextValue as SubscriberContext;
    const operation = getOperationAST(args.document, args.operationName);
    if (context.sharedRun || !context.authorization || !context.request || !operation) return null;
    if (!this.pipeline) return null;
    const { request, authorization, params } = context;
    const key = hashKey(context.authorization);
    const variables = (args.variableValues ?? {}) as Record<string, unknown>;
    const text = textOf(args.document);
    // Most subscriptions name no `after`: their text says so without walking the document.
    const id =
      !replayLast && text.includes('after') && resumesFromAPoint(args.document, variables)
        ? null
        : [key, args.operationName ?? '', text, canonicalJson(variables)].join('\n');
    const run: SharedRun = { authorization, requestId: requestIdOf(request), params };
    const subscriber = new Subscriber((joining) => this.join(joining, key, id, run, replayLast));
    subscribers.set(request, subscriber);
    // The request's own work is done: the shared stream's run does the rest, under its own
    // lifetime. Ended now, it holds no deadline timer and no listener while it stays subscribed.
    context.end();
    return subscriber;
  }

  /** Takes a slot and a place in the stream; what it returns gives both back. */
  private async join(
    subscriber: Subscriber,
    key: KeyHash,
    id: string | null,
    run: SharedRun,
    replayLast: boolean,
  ): Promise<(() => void) | undefined> {
    // A key PostHog has not accepted lately is checked first: its live work holds no slot until then.
    await this.live.keyCheck.check(run.authorization, key);
    if (subscriber.left) return undefined;
    const release = await this.live.slots.take(key);
    // Left while its slot was being counted (in Redis), or shutting down: the slot is given back at once.
    if (subscriber.left || this.closed) {
      release();
      if (subscriber.left) return undefined;
      throw codedError('UPSTREAM_UNAVAILABLE', 'The gateway is shutting down.');
    }
    let stream: SharedStream;
    try {
      stream = this.streamFor(id, run, replayLast);
      stream.add(subscriber);
    } catch (error) {
      release();
      throw error;
    }
    return () => {
      release();
      stream.remove(subscriber);
    };
  }

  private streamFor(id: string | null, run: SharedRun, replayLast: boolean): SharedStream {
    const running = id === null ? undefined : this.byId.get(id);
    if (running && !running.ended) return running;
    const stop = new AbortController();
    const pipeline = this.pipeline!;
    const refresh = new LiveRefresh();
    const stream: SharedStream = new SharedStream({
      start: () => runShared(pipeline, run, stop.signal, refresh),
      refresh: () => refresh.request(),
      replayLast,
      maxBacklogBytes: this.live.settings.maxBacklogBytes,
      onEnd: () => {
        this.streams.delete(stream);
        if (id !== null && this.byId.get(id) === stream) this.byId.delete(id);
        // The run's request ends as a request whose client left: what it has in flight stops.
        stop.abort();
      },
    });
    this.streams.add(stream);
    if (id !== null) this.byId.set(id, stream);
    return stream;
  }
}

/** What a shared stream's run is made of: its first subscriber's key, request id and parameters. */
interface SharedRun {
  authorization: string;
  requestId: string;
  params: unknown;
}

async function runShared(pipeline: Pipeline, run: SharedRun, signal: AbortSignal, liveRefresh: LiveRefresh) {
  const request = requestFor(pipeline.graphqlEndpoint, run.authorization, run.requestId, run.params, signal);
  if (!(request instanceof Request)) return { errors: [request] };
  const relay: RelaySlot = {};
  await pipeline.fetch(request, { relay, sharedRun: true, liveRefresh });
  return relay.result ?? { errors: [codedError('UPSTREAM_UNAVAILABLE', 'The operation was cancelled.')] };
}

/**
 * Last among the plugins that set how an operation runs (after live-queries.ts and jit.ts), so
 * that what is shared is the whole run.
 */
export function useSharedLiveWork(shared: SharedLiveWork): Plugin {
  return {
    onSubscribe({ subscribeFn, setSubscribeFn }) {
      setSubscribeFn((subscribeArgs) => {
        const subscriber = shared.open(subscribeArgs, false);
        return (subscriber ?? subscribeFn(subscribeArgs)) as never;
      });
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      if (!isLiveQuery(getOperationAST(args.document, args.operationName))) return;
      setExecuteFn((executeArgs) => {
        const subscriber = shared.open(executeArgs, true);
        return (subscriber ?? executeFn(executeArgs)) as never;
      });
    },
  };
}
