// Where kept GET answers are held (answers.ts decides what is kept and when it answers): this
// process's memory (memory-shelf.ts), or Redis when REDIS_URL is set (shared-state/redis-shelf.ts),
// so that every replica answers from, and drops, the same entries.
//
// An entry is dropped by a change to its resource: each place counts the changes seen to its
// project's collection, to its whole project and to everything (its `seen`). An entry kept under
// one count answers only while the count is unchanged, and a read begun under one count is kept
// only if no change came before it ended.

import type { UpstreamDeprecation } from '../deprecation.ts';

/** The answer of one GET as kept: its bytes once, parsed anew by each reader. */
export interface KeptAnswer {
  status: number;
  contentType: string;
  body: Buffer;
  /** What its head said of its route's end (upstream/deprecation.ts). */
  deprecation: UpstreamDeprecation | null;
  /** When it was read from the upstream (ms since the epoch). */
  at: number;
}

/** Where a GET's answer is kept, and the changes counted when its read began. */
export interface Place {
  /** The caller's key hash and the whole request: no two keys share a place. */
  id: string;
  /** The generations whose changes drop it (generationsOf). */
  generations: readonly string[];
  /** The changes counted when the read began (opaque; compared whole); null: not kept. */
  seen: string | null;
}

/** What a shelf holds at a place now. */
export interface Look {
  /** The changes counted now; null: the shelf cannot say (nothing is kept nor answered then). */
  seen: string | null;
  /** The entry, when no change dropped it. */
  kept?: KeptAnswer;
  /** Whether a process is reading the place for others now (shared shelves only). */
  reading?: boolean;
}

export interface Shelf {
  /** The entry at `id` if no change to its `generations` dropped it; `flight`: see claim. */
  look(id: string, generations: readonly string[], flight?: string): Look | Promise<Look>;
  /** Keeps `answer` at `place` unless a change came since `place.seen`. */
  put(place: Place, answer: KeptAnswer): void;
  /** A change: each generation named is counted once more (bumpedBy). */
  changed(generations: readonly string[]): void;
  /**
   * Shared shelves: whether this process is to read `flight` for every process (for `ms` at
   * most), or another is reading it already; absent: each process reads for itself.
   */
  claim?(flight: string, ms: number): Promise<boolean>;
  /** Ends this process's claim on `flight`. */
  release?(flight: string): void;
}

/** The generations whose changes drop what is kept of `project`'s `collection`. */
export function generationsOf(project: string, collection: string | null): string[] {
  return [project, `${project}/${collection ?? '-'}`, '*'];
}

/**
 * The generations a change bumps. A change to a project's collection is also one to `@current`'s
 * (a path may name the project so); a change to `@current`, or to what is not known, to anything.
 */
export function bumpedBy(project: string | null, collection: string | null): string[] {
  if (project === null || project === '@current') return ['*'];
  if (collection === null) return [project, '@current'];
  return [`${project}/${collection}`, `@current/${collection}`];
}
