// `query … @live`: the answer is pushed again whenever it changes. After each run the gateway
// knows what the query read (configs, lists, activity, projects: from the upstream paths it
// called). It runs the query again, as a fresh round of work with the caller's own key, new
// loaders, call budget and deadline:
// - at once after a write made through the gateway with the same key that may have changed
//   something it read (resources.ts): the mutated config itself, or its project's lists and
//   activity; a write to another config of the project leaves a query of one config alone;
// - otherwise every LIVE_QUERY_POLL_MS, to see changes made elsewhere.
// A re-run's answer is pushed only when it differs from the last one pushed. Nothing is shared
// between keys: each live query runs in a context of its key, and a write wakes only the live
// queries of its own key. The same live query asked with the same key runs once for all who
// asked (shared-live-work.ts, which also counts their slots with the subscriptions').
import { type ExecutionResult, getOperationAST, Kind, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Repeater } from 'graphql-yoga';
import type { GatewayContext } from '../context.ts';
import { hashKey, type KeyHash } from '../core/caller-key.ts';
import { missingAuthorization } from '../errors/codes.ts';
import type { RelayContext } from '../server/relayed-results.ts';
import { type Resource, resourceOf } from '../upstream/posthog/paths.ts';
import { liveNotIncrementalRule } from './live-not-incremental.ts';
import { mayChange } from './resources.ts';
import type { LiveServices } from './services.ts';

export function isLiveQuery(operation: OperationDefinitionNode | null | undefined): boolean {
  if (operation?.operation !== 'query') return false;
  const live = operation.directives?.find((d) => d.name.value === 'live');
  if (!live) return false;
  const condition = live.arguments?.find((a) => a.name.value === 'if')?.value;
  return !(condition?.kind === Kind.BOOLEAN && condition.value === false);
}

/** What a run read upstream (each path once). */
function resourcesRead(context: GatewayContext): Resource[] {
  const paths = new Set(context.calls.attempts.map((attempt) => attempt.path));
  return [...paths].map(resourceOf).filter((resource): resource is Resource => resource !== null);
}

type Execute = (args: never) => unknown;

/** What no re-run can change: the key, the project or the plan cannot serve what was asked. */
const ENDING_CODES: ReadonlySet<unknown> = new Set([
  'FORBIDDEN',
  'NOT_FOUND',
  'PAYMENT_REQUIRED',
  'UPSTREAM_UNSUPPORTED',
]);

/**
 * Fields whose value names what was asked for rather than answers it (a project's `id` is its
 * argument's, read from no upstream): they alone are no answer a re-run could change.
 */
const NAMING_FIELDS = new Set(['__typename', 'id']);

/** Whether `value` holds a value a re-run could change (a leaf other than null or a naming field). */
function holdsAnswer(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.some(holdsAnswer);
  if (typeof value !== 'object') return true;
  return Object.entries(value).some(([field, inner]) => !NAMING_FIELDS.has(field) && holdsAnswer(inner));
}

/**
 * Whether an answer says nothing can come: UNAUTHENTICATED anywhere (the upstream does not know
 * the key), or only errors no re-run can change (ENDING_CODES: a missing scope, no such project,
 * a plan without audit logs, a route PostHog retired) and nothing else answered. Re-running would
 * only ask again, and be refused again, for as long as the client stays. A transient error (a
 * timeout, a 5xx, a 429) among them keeps the live query.
 */
export function endsLiveQuery(result: unknown): boolean {
  const { data, errors } = result as ExecutionResult;
  if (!errors?.length) return false;
  const codes = errors.map((e) => e.extensions?.code);
  if (codes.includes('UNAUTHENTICATED')) return true;
  return codes.every((code) => ENDING_CODES.has(code)) && !holdsAnswer(data);
}

function liveResults(live: LiveServices, execute: Execute, args: { contextValue?: unknown }) {
  const context = args.contextValue as GatewayContext;
  const { authorization } = context;
  if (!authorization) throw missingAuthorization();
  return liveStream(live, execute, args, context, hashKey(authorization));
}

function liveStream(
  live: LiveServices,
  execute: Execute,
  args: { contextValue?: unknown },
  context: GatewayContext,
  key: KeyHash,
) {
  const run = () => Promise.resolve(execute(args as never));

  return new Repeater(async (push, stop) => {
    const stopClose = live.onClose(() => stop());
    let last = '';
    /** Rounds started so far; a fresh answer asked for after round N is the answer of a later one. */
    let rounds = 0;
    /** A newcomer asked for a fresh answer after this round began: a later round's is pushed even if unchanged. */
    let freshAfter: number | null = null;
    let read: Resource[] = [];
    let running: Promise<void> | null = null;
    let again = false;
    let timer: NodeJS.Timeout | null = null;
    /** Set once the live query is over: no round is scheduled after it. */
    let ended = false;

    const rerun = async (first: boolean) => {
      const round = ++rounds;
      if (!first) context.renew('poller');
      const result = await run();
      const text = JSON.stringify(result);
      read = resourcesRead(context);
      const fresh = freshAfter !== null && round > freshAfter;
      if (text !== last || fresh) {
        if (fresh) freshAfter = null;
        last = text;
        // Not awaited: push resolves only when the client reads, and a slow reader must not
        // hold back the next round (the Repeater buffers what it has not read).
        void push(result);
      }
      // As activityAdded does: an answer nothing can follow ends the live query, and its slot.
      if (endsLiveQuery(result)) {
        ended = true;
        stop();
      }
    };
    let wakes = 0; // asked so far: one asked while a round's pace is read stands
    const schedule = (ms: number) => {
      if (ended) return;
      if (ms === 0) wakes++;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void wake(), ms);
      timer.unref();
    };
    /** One round at a time; a wake during a round runs another right after it. */
    const round = async (first: boolean): Promise<void> => {
      if (running) {
        again = true;
        return;
      }
      running = rerun(first).catch((error) => stop(error));
      await running;
      running = null;
      if (again) {
        again = false;
        return round(false);
      }
      const woken = wakes;
      const paced = await live.pace.intervalMs(key, 'live_query', live.settings.liveQueryPollMs);
      if (wakes === woken) schedule(paced);
    };
    const wake = () => round(false);
    (args.contextValue as RelayContext).liveRefresh?.runWith(() => {
      freshAfter ??= rounds;
      schedule(0);
    });
    const stopWake = live.wake.listen(key, (written) => {
      if (read.length === 0 || read.some((resource) => mayChange(written, resource))) schedule(0);
    });

    await round(true);
    await stop;
    ended = true;
    if (timer) clearTimeout(timer);
    stopWake();
    stopClose();
    context.end();
  });
}

export function useLiveQueries(live: LiveServices): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(liveNotIncrementalRule);
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      if (!isLiveQuery(getOperationAST(args.document, args.operationName))) return;
      setExecuteFn((executeArgs) => liveResults(live, executeFn as Execute, executeArgs) as never);
    },
  };
}
