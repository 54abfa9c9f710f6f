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
