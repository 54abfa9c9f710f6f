// What a write may change, so that it wakes only the live work that read something it may have
// changed: a write to config 7 re-runs a live query that read config 7, a list of that project,
// its activity log or the project, and not one that read config 8 alone. A create or a rearrange
// (no config id) may change every config of the project. A write is also logged in the project's
// activity, so activity reads always count. (Paths are parsed into resources by upstream/posthog/paths.ts.)
import { mayBeSameProject } from '../core/ids.ts';
import type { Resource } from '../upstream/posthog/paths.ts';

/** Whether a write to `written` may change what a read of `read` answered. */
export function mayChange(written: Resource, read: Resource): boolean {
  if (!mayBeSameProject(read.projectId, written.projectId)) return false;
  if (read.configId === null || written.configId === null) return true;
  return read.configId === written.configId;
}
