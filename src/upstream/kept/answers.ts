// GET answers kept a short while (UPSTREAM_CACHE_TTL_MS), so a read repeated within it spends no
// call of the key's PostHog budget. The contract:
// - an answer is kept under the caller's key hash and the whole request (path and query): one key's
//   answer never reaches another key, whatever the two may read;
// - only 2xx answers of GETs about a project are kept; the activity log is not (it is how changes
//   are seen), nor anything of no project (the key's own answer, the list of projects);
// - identical reads of one key in flight at once are made once: in this process, and across
//   processes when the shelf is shared (Redis: one reads, the others wait for its entry);
// - a write through the gateway that PostHog accepted (or of unknown outcome), and any activity
//   entry the gateway's pollers deliver, drops what is kept of the resource it changed (its
//   project's collection: `hog_functions`, `batch_exports`, `pipeline_destination_configs`; the
//   whole project when the collection is not known), for every key and every process sharing the
//   shelf; a refused write drops nothing; a read ending while a write to its project is pending
//   in this process is not kept;
// - a key PostHog refused lately is answered by none of its kept answers;
// - an answer whose head said its route is going keeps saying so: each caller it answers (kept,
//   joined or stale) is told (`onKeptDeprecation`), as the one that read it was;
// - when the upstream answers 429, 5xx or does not answer in time (or the key's budget refuses the
//   call), an answer kept within UPSTREAM_CACHE_STALE_MS (and not dropped) answers instead, and
//   the caller is told its age;
// - bounded in bytes (UPSTREAM_CACHE_MAX_BYTES) wherever it is kept (shelf.ts).
import type { KeyHash } from '../../core/caller-key.ts';
import { queryString } from '../attempt.ts';
import type { CallerOptions, UpstreamCall, UpstreamResponse } from '../call.ts';
import { resourceOf, routeTemplate } from '../posthog/paths.ts';
import { followRead } from './follow.ts';
import { callersOwn, keptOf, served, upstreamFault } from './kept-answer.ts';
import { MemoryShelf } from './memory-shelf.ts';
import { bumpedBy, generationsOf, type Place, type Shelf } from './shelf.ts';

export interface KeptAnswersOptions {
  /** How long an answer answers again; 0: nothing is kept. */
  cacheTtlMs: number;
  /** How old a kept answer may be and still answer when the upstream cannot. */
  cacheStaleMs: number;
  /** The bytes all kept answers hold at most. */
  cacheMaxBytes: number;
}

interface Flight {
  answer: Promise<UpstreamResponse>;
  caller: CallerOptions;
}

/** Routes never kept: the activity log is how changes are seen. */
const NOT_KEPT = /\/(activity_log|advanced_activity_logs)\//;

export class KeptAnswers {
  private readonly inFlight = new Map<string, Flight>();
  /** Writes sent and not yet answered, each with its project (null: unknown). */
  private readonly pending = new Set<{ project: string | null }>();

  /** null when UPSTREAM_CACHE_TTL_MS is 0; kept in this process's memory unless `shelf` says. */
  static of(options: KeptAnswersOptions, shelf?: Shelf): KeptAnswers | null {
    if (options.cacheTtlMs <= 0) return null;
    return new KeptAnswers(options, shelf ?? new MemoryShelf(options.cacheMaxBytes));
  }

  private constructor(
    private readonly options: KeptAnswersOptions,
    private readonly shelf: Shelf,
  ) {}

  /** A GET answered from what is kept when it may be; a write drops what is kept of its resource. */
  async through(
    call: UpstreamCall,
    caller: CallerOptions,
    keyOf: () => KeyHash,
    send: () => Promise<UpstreamResponse>,
    refused: () => boolean,
  ): Promise<UpstreamResponse> {
    if (call.method !== 'GET') return this.write(call, send);
    const target = placeOf(keyOf(), call);
    if (!target || refused()) return send();
    return this.read(target, call, caller, send);
  }

  /** A change to `projectId`'s `collection` (null: to the project; a null project: to anything). */
  changed(projectId: string | null, collection: string | null = null): void {
    this.shelf.changed(bumpedBy(projectId, collection));
  }

  /** Pending while sent (see `keeps`); drops what is kept once accepted or of unknown outcome. */
  private async write(call: UpstreamCall, send: () => Promise<UpstreamResponse>): Promise<UpstreamResponse> {
    const resource = resourceOf(call.path);
    const write = { project: resource?.projectId ?? null };
    this.pending.add(write);
    let changed = false;
    try {
      const response = await send();
      changed = response.status < 400;
      return response;
    } catch (error) {
      changed = (error as { extensions?: { writeOutcome?: unknown } }).extensions?.writeOutcome === 'unknown';
      throw error;
    } finally {
      this.pending.delete(write);
      if (changed) this.changed(write.project, resource?.collection ?? null);
    }
  }

  /** Whether a read begun at `place` may be kept: no write pending here that may change it. */
  private keeps(place: Place, project: string): boolean {
    if (place.seen === null) return false;
    const may = (p: string | null) =>
      p === null || p === project || p === '@current' || project === '@current';
    return ![...this.pending].some((write) => may(write.project));
  }

  /**
   * The answer: kept, or read by `send` (once for identical reads in flight), or kept within the
   * stale bound when the read fails as the upstream's fault (the caller's onStale is told its age).
   */
  private async read(
    target: Target,
    call: UpstreamCall,
    caller: CallerOptions,
    send: () => Promise<UpstreamResponse>,
  ): Promise<UpstreamResponse> {
    const look = await this.shelf.look(target.id, target.generations);
    if (look.kept && Date.now() - look.kept.at < this.options.cacheTtlMs) {
      caller.observer?.kept?.(call, 'hit');
      return served(look.kept, call, caller);
    }
    const place: Place = { ...target, seen: look.seen };
    try {
      return await this.shared(place, target.project, call, caller, send);
    } catch (error) {
      if (!upstreamFault(error)) throw error;
      const stale = (await this.shelf.look(place.id, place.generations)).kept;
      const ageMs = stale ? Date.now() - stale.at : Number.POSITIVE_INFINITY;
      if (!stale || ageMs >= this.options.cacheStaleMs) throw error;
      caller.onStale?.({ path: call.path, ageSeconds: Math.floor(ageMs / 1000) });
      caller.observer?.kept?.(call, 'stale');
      return served(stale, call, caller);
    }
  }

  /** One read per place in flight: a read joins one begun since the last change to its resource. */
  private async shared(
    place: Place,
    project: string,
    call: UpstreamCall,
    caller: CallerOptions,
    send: () => Promise<UpstreamResponse>,
  ): Promise<UpstreamResponse> {
    // Only reads of one priority class share a call: each class spends its own part of the budget.
    const flightId = `${place.id} ${place.seen} ${caller.priority ?? 'interactive'}`;
    const flight = this.inFlight.get(flightId);
    if (!flight) return this.lead(place, project, flightId, call, caller, send);
    try {
      const answer = await flight.answer;
      caller.observer?.kept?.(call, 'joined');
      return served(keptOf(answer, 0), call, caller);
    } catch (error) {
      // The read failed as its own caller's (gone, past its deadline, refused by its budget or
      // its request's call limit): this one reads itself.
      if (!flight.caller.signal.aborted && Date.now() < flight.caller.deadline && !callersOwn(error))
        throw error;
      return this.lead(place, project, flightId, call, caller, send);
    }
  }

  /** A read others in this process may join. */
  private async lead(
    place: Place,
    project: string,
    flightId: string,
    call: UpstreamCall,
    caller: CallerOptions,
    send: () => Promise<UpstreamResponse>,
  ): Promise<UpstreamResponse> {
    const flight: Flight = { answer: this.readOnce(place, project, flightId, call, caller, send), caller };
    this.inFlight.set(flightId, flight);
    try {
      return await flight.answer;
    } finally {
      if (this.inFlight.get(flightId) === flight) this.inFlight.delete(flightId);
    }
  }

  /** The read, made once for every process sharing the shelf, and kept unless a change came. */
  private async readOnce(
    place: Place,
    project: string,
    flightId: string,
    call: UpstreamCall,
    caller: CallerOptions,
    send: () => Promise<UpstreamResponse>,
  ): Promise<UpstreamResponse> {
    const { shelf } = this;
    let claimed = false;
    if (shelf.claim && place.seen !== null) {
      claimed = await shelf.claim(flightId, Math.max(1, caller.deadline - Date.now()));
      if (!claimed) {
        const theirs = await followRead(shelf, place, flightId, caller, this.options.cacheTtlMs);
        if (theirs) {
          caller.observer?.kept?.(call, 'followed');
          return served(theirs, call, caller);
        }
      }
    }
    try {
      caller.observer?.kept?.(call, 'miss');
      const response = await send();
      // One copy, held alone: the answer's chunks are views of the socket's read buffers (call.ts).
      if (response.status < 300 && this.keeps(place, project)) shelf.put(place, keptOf(response, Date.now()));
      return response;
    } finally {
      if (claimed) shelf.release?.(flightId);
    }
  }
}

interface Target {
  id: string;
  project: string;
  generations: string[];
}

/** Where `key`'s answer to `call` is kept; null when it is not kept (see above). */
function placeOf(key: KeyHash, call: UpstreamCall): Target | null {
  const resource = resourceOf(call.path);
  if (resource === null || NOT_KEPT.test(routeTemplate(call.path))) return null;
  const id = `${key} ${call.path}${queryString(call.query)}`;
  return {
    id,
    project: resource.projectId,
    generations: generationsOf(resource.projectId, resource.collection),
  };
}
