// The identifiers every layer passes around, validated in one place: a project id is an integer
// or `@current` (PostHog's name for the key owner's current project), a config id a positive
// 32-bit integer, a hog function id a UUID. Anything else is BAD_USER_INPUT before any upstream
// request is made, so no caller input can reach another path (`1/../2`, `%2e%2e`, `1?x=`). A leaf
// module.
import { badUserInput } from '../errors/codes.ts';

/** The project id PostHog resolves to the key owner's current project. */
export const CURRENT_PROJECT = '@current';
/** A project id as a caller may address it (the source of every pattern below). */
export const PROJECT_ID_PATTERN = String.raw`\d{1,18}|@current`;
/** A config id as text: a positive integer of at most ten digits (and at most MAX_CONFIG_ID). */
export const CONFIG_ID_PATTERN = String.raw`[1-9]\d{0,9}`;
export const MAX_CONFIG_ID = 2_147_483_647;
/**
 * A UUID in lower case (as PostHog writes it): the id of a hog function, a batch export, a batch
 * export's run or backfill.
 */
export const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const PROJECT_ID = new RegExp(`^(?:${PROJECT_ID_PATTERN})$`);
const CONFIG_ID = new RegExp(`^${CONFIG_ID_PATTERN}$`);

/**
 * A project id in its one spelling: `001` is project `1` (PostHog reads it so), and is `1` in every
 * global id, cursor, path, wake-up and cache key the gateway makes from it.
 */
export function validateProjectId(projectId: string): string {
  if (!PROJECT_ID.test(projectId)) {
    throw badUserInput(
      `projectId must be a project's integer id or "@current"; got ${JSON.stringify(projectId.slice(0, 40))}${projectId.length > 40 ? '…' : ''}.`,
      { field: 'projectId' },
    );
  }
  return canonicalProjectId(projectId);
}

/** `@current` as it is; an integer without leading zeros. */
export const canonicalProjectId = (projectId: string) =>
  projectId === CURRENT_PROJECT ? projectId : projectId.replace(/^0+(?=\d)/, '');

export function validateConfigId(id: number, field = 'databaseId'): number {
  if (!Number.isInteger(id) || id < 1 || id > MAX_CONFIG_ID) {
    throw badUserInput(`${field} must be a positive 32-bit integer; got ${id}.`, { field });
  }
  return id;
}

const UUID = new RegExp(`^${UUID_PATTERN}$`);
/** A batch export's (or its run's, or its backfill's) UUID in any case, as PostHog's lower case. */
export function validateUuid(uuid: string, what: string, field = 'uuid'): string {
  const lower = uuid.toLowerCase();
  if (!UUID.test(lower)) {
    throw badUserInput(
      `${field} must be ${what}'s UUID; got ${JSON.stringify(uuid.slice(0, 40))}${uuid.length > 40 ? '…' : ''}.`,
      { field },
    );
  }
  return lower;
}

/** PostHog's template ids: `template-webhook`, `plugin-<repository>`, `coming-soon-…`. */
export const TEMPLATE_ID_PATTERN = '[A-Za-z0-9][A-Za-z0-9_-]{0,127}';
const TEMPLATE_ID = new RegExp(`^${TEMPLATE_ID_PATTERN}$`);

/** A hog function template's id, safe to put in a path. */
export function validateTemplateId(id: string, field = 'id'): string {
  if (!TEMPLATE_ID.test(id)) {
    throw badUserInput(
      `${field} must be a template id such as "template-webhook" (letters, digits, - and _); got ${JSON.stringify(id.slice(0, 40))}${id.length > 40 ? '…' : ''}. List them with project { hogFunctionTemplates }.`,
      { field },
    );
  }
  return id;
}

/** A hog function's UUID in any case, as the lower-case form PostHog uses. */
export function validateHogFunctionId(uuid: string, field = 'uuid'): string {
  const lower = uuid.toLowerCase();
  if (!UUID.test(lower)) {
    throw badUserInput(
      `${field} must be a hog function's UUID; got ${JSON.stringify(uuid.slice(0, 40))}${uuid.length > 40 ? '…' : ''}.`,
      { field },
    );
  }
  return lower;
}

/** A hog function id written as text (an activity entry's item_id), lower-cased; null if it is none. */
export function hogFunctionIdFromText(text: string | null | undefined): string | null {
  const lower = text?.toLowerCase();
  return lower && UUID.test(lower) ? lower : null;
}

/** Any UUID written as text (a batch export's in an activity entry's item_id); null if it is none. */
export const uuidFromText = hogFunctionIdFromText;

/** A config id written as text (an activity entry's item_id, a global id's part); null if it is none. */
export function configIdFromText(text: string | null | undefined): number | null {
  if (!text || !CONFIG_ID.test(text)) return null;
  const id = Number(text);
  return id <= MAX_CONFIG_ID ? id : null;
}

/** Whether two project ids as addressed may name one project: equal, or either is `@current`. */
export const mayBeSameProject = (a: string, b: string) =>
  a === b || a === CURRENT_PROJECT || b === CURRENT_PROJECT;
