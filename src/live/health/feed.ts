// What of a project's destinations' health is news: each poll reads the destinations of the
// asked kinds (loaders/destinations.ts, the list Project.destinations answers) and compares each
// one's health (loaders/destination-health.ts) with the last poll's. A change of `state` is news;
// the first poll is the baseline, and a destination that appears or goes is not a change of
// health. A poll an answer kept for a failing upstream stood in for (UPSTREAM_CACHE_STALE_MS)
// changes nothing. A kind the key may not read is left out; every kind refused ends the streams (that
// refusal's code).
import type { DestinationHealth } from '../../loaders/destination-health.ts';
import { destinationHealth } from '../../loaders/destination-health.ts';
import type { DestinationKind, DestinationRecord } from '../../loaders/destinations.ts';
import type { Loaders } from '../../loaders/index.ts';
import type { FeedPosition } from '../../shared-state/shared-polling.ts';
import type { PollerEvent, PollerFeed } from '../activity/poller.ts';

export interface HealthArgs {
  projectId: string;
  /** Sorted, each once. */
  kinds: DestinationKind[];
}

/** A destination whose health changed: as read at the poll that saw it, and both healths. */
export interface HealthChange {
  kind: DestinationKind;
  destination: DestinationRecord;
  old: DestinationHealth;
  new: DestinationHealth;
}

/** The last poll's health of each destination, by `idOf`, as processes sharing a poller pass it on. */
interface HealthPosition extends FeedPosition {
  states: Record<string, DestinationHealth>;
  baselined: boolean;
}

export const kindOf = (d: DestinationRecord): DestinationKind =>
  d.__typename === 'HogFunction'
    ? 'HOG_FUNCTION'
    : d.__typename === 'BatchExport'
      ? 'BATCH_EXPORT'
      : 'PLUGIN_CONFIG';
const idOf = (d: DestinationRecord) =>
  `${kindOf(d)}:${d.__typename === 'DestinationConfig' ? d.databaseId : d.uuid}`;

export class HealthFeed implements PollerFeed<HealthChange> {
  private states = new Map<string, DestinationHealth>();
  private baselined = false;

  constructor(private readonly args: HealthArgs) {}

  /** The baseline is the first poll's. */
  start(): void {}

  position(): HealthPosition {
    return {
      seen: [...this.states.keys()],
      states: Object.fromEntries(this.states),
      baselined: this.baselined,
    };
  }

  resume(position: FeedPosition): void {
    const { states, baselined } = position as HealthPosition;
    this.states = new Map(Object.entries(states ?? {}));
    this.baselined = baselined === true;
  }

  /**
   * Changes of messages not heard are not read again: a destination's state is its latest, which
   * the next message's position holds (the baseline from then on), so what it went through
   * meanwhile is superseded and not reported.
   */
  async missed(): Promise<PollerEvent<HealthChange>[]> {
    return [];
  }

  async read(loaders: Loaders, stale: () => boolean): Promise<{ fresh: HealthChange[]; leftOut: boolean }> {
    const { projectId, kinds } = this.args;
    const window = await loaders.destinations.window(projectId, {
      enabled: null,
      kinds,
      search: null,
      order: null,
    });
    const refusal = window.refused[0];
    if (refusal && window.refused.length === kinds.length) throw refusal.error;
    const destinations = await window.slice(0, window.total);
    // An older answer kept for a failing upstream says nothing new: the next poll compares.
    if (stale()) return { fresh: [], leftOut: false };
    const fresh: HealthChange[] = [];
    const states = new Map<string, DestinationHealth>();
    for (const destination of destinations) {
      const id = idOf(destination);
      const now = destinationHealth(destination);
      const before = this.states.get(id);
      states.set(id, now);
      if (this.baselined && before && before.state !== now.state)
        fresh.push({ kind: kindOf(destination), destination, old: before, new: now });
    }
    this.states = states;
    this.baselined = true;
    return { fresh, leftOut: false };
  }
}
