// GET answers kept a short while (UPSTREAM_CACHE_TTL_MS), so a read repeated within it spends no
// call of the key's PostHog budget. The contract:
// - an answer is kept under the caller's key hash and the whole request (path and query): one key's
//   answer never reaches another key, whatever the two may read;
// - only 2xx answers of GETs about a project are kept; the activity log is not (it is how changes
//   are seen), nor anything of no project (the key's own answer, the list of projects);
// - identical reads of one key in flight at once are made once (in this process);
// - a write through the gateway that PostHog accepted (or of unknown outcome), and any activity
//   entry the gateway's pollers deliver, drops what is kept of its project, for every key (a project
//   addressed as `@current` is dropped with every project, and a change to it drops everything); a
//   refused write drops nothing; a read ending while a write to its project is pending is not kept;
// - a key PostHog refused lately is answered by none of its kept answers;
// - an answer whose head said its route is going keeps saying so: each caller it answers (kept,
//   joined or stale) is told (`onKeptDeprecation`), as the one that read it was;
// - when the upstream answers 429, 5xx or does not answer in time (or the key's budget refuses the
//   call), an answer kept within UPSTREAM_CACHE_STALE_MS (and not dropped) answers instead, and
//   the caller is told its age;
// - bounded in bytes (UPSTREAM_CACHE_MAX_BYTES), least recently used first out.
import { BoundedCache, stringBytes } from '../core/bounded-cache.ts';
import type { KeyHash } from '../core/caller-key.ts';
import { queryString } from './attempt.ts';
import type { CallerOptions, UpstreamCall, UpstreamResponse } from './call.ts';
import { byteLength, type Kept, type Place, served } from './kept-answer.ts';
import { resourceOf, routeTemplate } from './posthog/paths.ts';

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

/** What an upstream error says of the upstream: 429, 5xx or no answer in time may be served stale. */
const STALE_CODES = new Set(['RATE_LIMITED', 'UPSTREAM_ERROR', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_TIMEOUT']);

/** Projects whose generation is counted; past it, everything is dropped and counting starts over. */
const MAX_PROJECTS = 10_000;

/** Bytes an entry holds besides its answer's (its record, the place). */
const ENTRY_BYTES = 256;

export class KeptAnswers {
  private readonly kept: BoundedCache<Kept>;
  private readonly inFlight = new Map<string, Flight>();
  /** Bumped by each change to a project: an entry of an older generation is dropped. */
  private readonly generations = new Map<string, number>();
  private everything = 0;
  /** Writes sent and not yet answered, each with its project (null: unknown). */
  private readonly pending = new Set<{ project: string | null }>();

  /** null when UPSTREAM_CACHE_TTL_MS is 0. */
  static of(options: KeptAnswersOptions): KeptAnswers | null {
    return options.cacheTtlMs > 0 ? new KeptAnswers(options) : null;
  }

  private constructor(private readonly options: KeptAnswersOptions) {
    const maxBytes = options.cacheMaxBytes;
    const limits = { maxEntries: 100_000, maxBytes, maxItemBytes: Math.floor(maxBytes / 4) };
    this.kept = new BoundedCache(
      limits,
      (kept) => ENTRY_BYTES + stringBytes(kept.place.id) + byteLength(kept),
    );
  }

  /** A GET answered from what is kept when it may be; a write drops what is kept of its project. */
  async through(
    call: UpstreamCall,
    caller: CallerOptions,
    keyOf: () => KeyHash,
    send: () => Promise<UpstreamResponse>,
    refused: () => boolean,
  ): Promise<UpstreamResponse> {
    if (call.method !== 'GET') return this.write(call, send);
    const place = this.place(keyOf(), call);
    if (!place || refused()) return send();
    const onStale = (ageSeconds: number) => caller.onStale?.({ path: call.path, ageSeconds });
    return this.read(place, call, caller, send, onStale);
  }

  /** Pending while sent (see `keeps`); drops what is kept once accepted or of unknown outcome. */
  private async write(call: UpstreamCall, send: () => Promise<UpstreamResponse>): Promise<UpstreamResponse> {
    const write = { project: resourceOf(call.path)?.projectId ?? null };
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
      if (changed) this.changed(write.project);
    }
  }

  /** Whether a read begun at `place` is kept: no change since, and no write pending that may make one. */
  private keeps({ project, generation, everything }: Place): boolean {
    if (this.generationOf(project) !== generation || this.everything !== everything) return false;
    const may = (p: string | null) =>
      p === null || p === project || p === '@current' || project === '@current';
    return ![...this.pending].some((write) => may(write.project));
  }

  /** Where `key`'s answer to `call` is kept; null when it is not kept (see above). */
  private place(key: KeyHash, call: UpstreamCall): Place | null {
    const project = resourceOf(call.path)?.projectId;
    if (project === undefined || NOT_KEPT.test(routeTemplate(call.path))) return null;
    const id = `${key} ${call.path}${queryString(call.query)}`;
    return { id, project, generation: this.generationOf(project), everything: this.everything };
  }

  /**
   * The answer: kept, or read by `send` (once for identical reads in flight), or kept within the
   * stale bound when the read fails as the upstream's fault (`onStale` is told its age).
   */
  private async read(
    place: Place,
    call: UpstreamCall,
    caller: CallerOptions,
    send: () => Promise<UpstreamResponse>,
    onStale: (ageSeconds: number) => void,
  ): Promise<UpstreamResponse> {
    const kept = this.valid(place.id);
    if (kept && Date.now() - kept.at < this.options.cacheTtlMs) return served(kept, call, caller);
    try {
      return await this.shared(place, call, caller, send);
    } catch (error) {
      const stale = this.valid(place.id);
      const ageMs = stale ? Date.now() - stale.at : Number.POSITIVE_INFINITY;
      if (!stale || ageMs >= this.options.cacheStaleMs || !upstreamFault(error)) throw error;
      onStale(Math.floor(ageMs / 1000));
      return served(stale, call, caller);
    }
  }

  /** A change to `projectId` (null: unknown, `@current`: any): what is kept of it is dropped. */
  changed(projectId: string | null): void {
    if (projectId === null || projectId === '@current' || this.generations.size >= MAX_PROJECTS) {
      this.generations.clear();
      this.everything++;
      return;
    }
    this.bump(projectId);
    this.bump('@current');
  }

  private bump(projectId: string): void {
    this.generations.set(projectId, (this.generations.get(projectId) ?? 0) + 1);
  }

  private generationOf(project: string): number {
    return this.generations.get(project) ?? 0;
  }

  /** The entry kept at `id` if no change dropped it since its read began. */
  private valid(id: string): Kept | undefined {
    const kept = this.kept.get(id);
    if (!kept) return undefined;
    const { place } = kept;
    if (place.everything === this.everything && place.generation === this.generationOf(place.project))
      return kept;
    this.kept.delete(id);
    return undefined;
  }

  /** One read per place in flight: a read joins one begun since the last change to its project. */
  private async shared(
    place: Place,
    call: UpstreamCall,
    caller: CallerOptions,
    send: () => Promise<UpstreamResponse>,
  ): Promise<UpstreamResponse> {
    // Only reads of one priority class share a call: each class spends its own part of the budget.
    const flightId = `${place.id} ${place.everything}:${place.generation} ${caller.priority ?? 'interactive'}`;
    const flight = this.inFlight.get(flightId);
    if (!flight) return this.lead(place, flightId, { answer: send(), caller });
    try {
      const { status, contentType, chunks, deprecation = null } = await flight.answer;
      return served({ status, contentType, chunks, deprecation, at: 0, place }, call, caller);
    } catch (error) {
      // The read failed as its own caller's (gone, past its deadline, refused by its budget or
      // its request's call limit): this one reads itself.
      if (!flight.caller.signal.aborted && Date.now() < flight.caller.deadline && !callersOwn(error))
        throw error;
      return this.lead(place, flightId, { answer: send(), caller });
    }
  }

  /** A read others may join, kept when no change came while it was made. */
  private async lead(place: Place, flightId: string, flight: Flight): Promise<UpstreamResponse> {
    this.inFlight.set(flightId, flight);
    try {
      const response = await flight.answer;
      const { status, contentType, deprecation = null } = response;
      // One copy, held alone: the answer's chunks are views of the socket's read buffers (call.ts).
      const chunks = this.keeps(place) ? [Buffer.concat(response.chunks)] : null;
      if (chunks)
        this.kept.set(place.id, { status, contentType, chunks, deprecation, at: Date.now(), place });
      return response;
    } finally {
      if (this.inFlight.get(flightId) === flight) this.inFlight.delete(flightId);
    }
  }
}

/** Routes never kept: the activity log is how changes are seen. */
const NOT_KEPT = /\/(activity_log|advanced_activity_logs)\//;

function upstreamFault(error: unknown): boolean {
  const extensions = (error as { extensions?: Record<string, unknown> } | null)?.extensions;
  if (!STALE_CODES.has(String(extensions?.code))) return false;
  const status = (extensions?.upstream as { status?: number } | undefined)?.status;
  return status === undefined || status === 429 || status >= 500;
}

/** A failure of the caller's own limits, not of the read: budget refusal, the request's call limit. */
function callersOwn(error: unknown): boolean {
  const extensions = (error as { extensions?: Record<string, unknown> } | null)?.extensions;
  return extensions?.budget === true || extensions?.reason === 'UPSTREAM_DATA_TOO_LARGE';
}
