// An activity entry written straight into the reference upstream's log, as PostHog writes one for
// a change made elsewhere: nothing passes through the gateway, so no write wakes a poller.
import type { ActivityEntry, Store } from 'posthog-emulator';

export function pushEntry(store: Store, scope: string, itemId: string, projectId = 1): ActivityEntry {
  return store.pushActivity({
    projectId,
    userId: 1,
    is_system: false,
    activity: 'updated',
    scope,
    item_id: itemId,
    detail: null,
    createdAtMicros: store.nowMicros(),
  });
}

/**
 * Pushes an entry of `scope` every `everyMs` until every stream has had one: a stream whose
 * headers have come may not have joined its poller yet (shared across processes, it hears only
 * what is published after it has), so a test's own entries come after this.
 */
export async function untilEveryStreamHears(
  store: Store,
  scope: string,
  streams: { events: string[] }[],
  { everyMs = 700, withinMs = 60_000 } = {},
): Promise<void> {
  const end = Date.now() + withinMs;
  for (let n = 0; !streams.every((s) => s.events.length > 0); n++) {
    if (Date.now() > end) throw new Error('waited in vain for every stream to hear an entry');
    pushEntry(store, scope, `warm-up-${n}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
