// What an upstream call is about, read from its path, so that a write wakes only the live work
// that read something it may have changed: a write to config 7 re-runs a live query that read
// config 7, a list of that project, its activity log or the project, and not one that read
// config 8 alone. A create or a rearrange (no config id) may change every config of the project.
// A write is also logged in the project's activity, so activity reads always count.

export interface Resource {
  projectId: string;
  /** The config the path is about; null for a list, the activity log or the project. */
  configId: number | null;
}

const PATH = /^\/api\/projects\/([^/]+)\/(?:pipeline_destination_configs\/(\d+)\/)?/;

export function resourceOf(path: string): Resource | null {
  const match = PATH.exec(path);
  if (!match) return null;
  return { projectId: match[1]!, configId: match[2] === undefined ? null : Number(match[2]) };
}

/** Whether two project ids as addressed may be the same project (either may be @current). */
export const sameProject = (a: string, b: string) => a === b || a === '@current' || b === '@current';

/** Whether a write to `written` may change what a read of `read` answered. */
export function mayChange(written: Resource, read: Resource): boolean {
  if (!sameProject(read.projectId, written.projectId)) return false;
  if (read.configId === null || written.configId === null) return true;
  return read.configId === written.configId;
}
