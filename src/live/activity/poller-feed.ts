// What a feed poller (poller.ts) polls: the activity log's news (activity-poller.ts), a project's
// destinations' health (live/health/feed.ts).
import type { Loaders } from '../../loaders/index.ts';
import type { FeedPosition } from '../../shared-state/shared-polling.ts';
import type { PollerEvent } from './poller.ts';

/**
 * What a poller reads: where it stands (handed between processes as JSON: shared-polling.ts),
 * and one poll's news, read with the poller's loaders. A read that throws a coded error fails
 * the poll (ENDING_CODES end the streams).
 */
export interface PollerFeed<Item> {
  /** The first subscriber came (alone, not shared): what is news starts now. */
  start(): void;
  position(): FeedPosition;
  resume(position: FeedPosition): void;
  /** `stale()`: whether a kept answer stood in for one the upstream failed (kept-answers.ts). */
  read(loaders: Loaders, stale: () => boolean): Promise<{ fresh: Item[]; leftOut: boolean; more?: boolean }>;
  /**
   * What messages a process did not hear carried, read again from the position before them to
   * `to`, the position after a later message (whose items are `then`, left out).
   */
  missed(from: FeedPosition, to: FeedPosition, then: Item[], loaders: Loaders): Promise<PollerEvent<Item>[]>;
}
