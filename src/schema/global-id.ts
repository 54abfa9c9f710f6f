// Global object ids: base64 of `Project:<projectId>` or `DestinationConfig:<projectId>:<id>`.
// Opaque to callers; decoded strictly (canonical base64, known type, valid segments), so a
// malformed, tampered or foreign id is BAD_USER_INPUT and never reaches the upstream.
import { badUserInput } from '../errors/codes.ts';
import { CONFIG_ID_PATTERN, configIdFromText, PROJECT_ID_PATTERN } from '../ids.ts';

export type GlobalId =
  | { typename: 'Project'; projectId: string }
  | { typename: 'DestinationConfig'; projectId: string; databaseId: number };

const PROJECT = new RegExp(`^Project:(${PROJECT_ID_PATTERN})$`);
const CONFIG = new RegExp(`^DestinationConfig:(${PROJECT_ID_PATTERN}):(${CONFIG_ID_PATTERN})$`);
const MAX_ID_LENGTH = 200;

export const encodeGlobalId = (typename: string, localId: string) =>
  Buffer.from(`${typename}:${localId}`, 'utf8').toString('base64');

export const projectGlobalId = (projectId: string) => encodeGlobalId('Project', projectId);
export const configGlobalId = (projectId: string, databaseId: number) =>
  encodeGlobalId('DestinationConfig', `${projectId}:${databaseId}`);

export function decodeGlobalId(id: string, field = 'id'): GlobalId {
  const invalid = () =>
    badUserInput(
      `${field} is not a global id of this API; use the \`id\` of a Project or DestinationConfig.`,
      {
        field,
      },
    );
  if (id.length > MAX_ID_LENGTH || !/^[A-Za-z0-9+/]+={0,2}$/.test(id)) throw invalid();
  const text = Buffer.from(id, 'base64').toString('utf8');
  // Only the canonical encoding is accepted: no second spelling of the same id.
  if (Buffer.from(text, 'utf8').toString('base64') !== id) throw invalid();
  const project = PROJECT.exec(text);
  if (project) return { typename: 'Project', projectId: project[1]! };
  const config = CONFIG.exec(text);
  const databaseId = configIdFromText(config?.[2]);
  if (config && databaseId !== null)
    return { typename: 'DestinationConfig', projectId: config[1]!, databaseId };
  throw invalid();
}

export function decodeConfigGlobalId(id: string, field = 'id') {
  const decoded = decodeGlobalId(id, field);
  if (decoded.typename !== 'DestinationConfig') {
    throw badUserInput(`${field} must be the id of a DestinationConfig, not of a ${decoded.typename}.`, {
      field,
    });
  }
  return decoded;
}
