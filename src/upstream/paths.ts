// Upstream paths are built only from validated segments: a project id is an integer or
// `@current`, a config id a positive 32-bit integer. Anything else is BAD_USER_INPUT before any
// request is made, so no caller input can reach another path (`1/../2`, `%2e%2e`, `1?x=`).
import { badUserInput } from './errors.ts';

const PROJECT_ID = /^(?:\d{1,18}|@current)$/;
export const MAX_CONFIG_ID = 2_147_483_647;

export function validateProjectId(projectId: string): string {
  if (!PROJECT_ID.test(projectId)) {
    throw badUserInput(
      `projectId must be a project's integer id or "@current"; got ${JSON.stringify(projectId.slice(0, 40))}${projectId.length > 40 ? '…' : ''}.`,
      { field: 'projectId' },
    );
  }
  return projectId;
}

export function validateConfigId(id: number, field = 'databaseId'): number {
  if (!Number.isInteger(id) || id < 1 || id > MAX_CONFIG_ID) {
    throw badUserInput(`${field} must be a positive 32-bit integer; got ${id}.`, { field });
  }
  return id;
}

const project = (projectId: string) => `/api/projects/${validateProjectId(projectId)}`;
const configs = (projectId: string) => `${project(projectId)}/pipeline_destination_configs`;
const config = (projectId: string, id: number) => `${configs(projectId)}/${validateConfigId(id)}`;

export const PATHS = {
  projects: () => '/api/projects/',
  project: (projectId: string) => `${project(projectId)}/`,
  configs: (projectId: string) => `${configs(projectId)}/`,
  config: (projectId: string, id: number) => `${config(projectId, id)}/`,
  configFrontend: (projectId: string, id: number) => `${config(projectId, id)}/frontend/`,
  configJob: (projectId: string, id: number) => `${config(projectId, id)}/job/`,
  rearrange: (projectId: string) => `${configs(projectId)}/rearrange/`,
  activityLog: (projectId: string) => `${project(projectId)}/activity_log/`,
  bookmark: (projectId: string) => `${project(projectId)}/activity_log/bookmark_activity_notification/`,
  importantChanges: (projectId: string) => `${project(projectId)}/activity_log/important_changes/`,
};
