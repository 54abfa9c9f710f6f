// Global object ids: base64 of `Project:<projectId>`, `DestinationConfig:<projectId>:<id>`,
// `HogFunction:<projectId>:<uuid>`, `BatchExport:<projectId>:<uuid>`, or
// `BatchExportRun:`/`BatchExportBackfill:<projectId>:<export uuid>:<uuid>`, or
// `HogFunctionRevision:<projectId>:<function uuid>:<version>`.
// Opaque to callers; decoded strictly (canonical base64, known type, valid segments), so a
// malformed, tampered or foreign id is BAD_USER_INPUT and never reaches the upstream.

import {
  CONFIG_ID_PATTERN,
  configIdFromText,
  HOG_FUNCTION_ID_PATTERN,
  PROJECT_ID_PATTERN,
} from '../core/ids.ts';
import { badUserInput } from '../errors/codes.ts';

export type GlobalId =
  | { typename: 'Project'; projectId: string }
  | { typename: 'DestinationConfig'; projectId: string; databaseId: number }
  | { typename: 'HogFunction'; projectId: string; uuid: string }
  | { typename: 'BatchExport'; projectId: string; uuid: string }
  | { typename: 'BatchExportRun'; projectId: string; exportUuid: string; uuid: string }
  | { typename: 'BatchExportBackfill'; projectId: string; exportUuid: string; uuid: string }
  | { typename: 'HogFunctionRevision'; projectId: string; uuid: string; version: number };

/** The types whose id is `<projectId>:<uuid>`. */
const UUID_TYPES = ['HogFunction', 'BatchExport'] as const;
/** The types whose id is `<projectId>:<export uuid>:<uuid>`. */
const EXPORT_CHILD_TYPES = ['BatchExportRun', 'BatchExportBackfill'] as const;

const PROJECT = new RegExp(`^Project:(${PROJECT_ID_PATTERN})$`);
const CONFIG = new RegExp(`^DestinationConfig:(${PROJECT_ID_PATTERN}):(${CONFIG_ID_PATTERN})$`);
const BY_UUID = new RegExp(
  `^(${UUID_TYPES.join('|')}):(${PROJECT_ID_PATTERN}):(${HOG_FUNCTION_ID_PATTERN})$`,
);
const EXPORT_CHILD = new RegExp(
  `^(${EXPORT_CHILD_TYPES.join('|')}):(${PROJECT_ID_PATTERN}):(${HOG_FUNCTION_ID_PATTERN}):(${HOG_FUNCTION_ID_PATTERN})$`,
);
/** A version as HogFunction.version counts: 0 or more, no leading zero, within a GraphQL Int. */
const REVISION = new RegExp(
  `^HogFunctionRevision:(${PROJECT_ID_PATTERN}):(${HOG_FUNCTION_ID_PATTERN}):(0|[1-9]\\d{0,8})$`,
);
const MAX_ID_LENGTH = 200;

export const encodeGlobalId = (typename: string, localId: string) =>
  typename === 'DestinationConfig' && localId.length <= SHORT
    ? CONFIG_PREFIX + shortBase64(localId)
    : Buffer.from(`${typename}:${localId}`, 'utf8').toString('base64');

/**
 * A config's id, by hand: a page of 100 configs encodes 100, and Buffer.from(…).toString
 * ('base64') took 380 ns an id against 140 for the prefix's base64 and this for the rest
 * (`<project>:<id>`); the ids were 3 % of the 100-config page's CPU (--cpu-prof). Longer text
 * (a hog function's uuid) is faster through Buffer.
 */
const SHORT = 24;
// `DestinationConfig:` is 18 bytes, whole groups of three: its base64 starts every config's id.
const CONFIG_PREFIX = Buffer.from('DestinationConfig:').toString('base64');
const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** base64 of short text as Buffer writes its UTF-8: by hand when it is ASCII, as ids are. */
export function shortBase64(text: string): string {
  const length = text.length;
  for (let i = 0; i < length; i++) {
    if (text.charCodeAt(i) > 0x7f) return Buffer.from(text, 'utf8').toString('base64');
  }
  let out = '';
  let i = 0;
  for (; i + 2 < length; i += 3) {
    const bits = (text.charCodeAt(i) << 16) | (text.charCodeAt(i + 1) << 8) | text.charCodeAt(i + 2);
    out += digit(bits >> 18) + digit(bits >> 12) + digit(bits >> 6) + digit(bits);
  }
  if (i + 1 === length) {
    const bits = text.charCodeAt(i) << 16;
    out += `${digit(bits >> 18)}${digit(bits >> 12)}==`;
  } else if (i + 2 === length) {
    const bits = (text.charCodeAt(i) << 16) | (text.charCodeAt(i + 1) << 8);
    out += `${digit(bits >> 18)}${digit(bits >> 12)}${digit(bits >> 6)}=`;
  }
  return out;
}

const digit = (bits: number) => BASE64_DIGITS[bits & 63]!;

export const projectGlobalId = (projectId: string) => encodeGlobalId('Project', projectId);
export const configGlobalId = (projectId: string, databaseId: number) =>
  encodeGlobalId('DestinationConfig', `${projectId}:${databaseId}`);
export const hogFunctionGlobalId = (projectId: string, uuid: string) =>
  encodeGlobalId('HogFunction', `${projectId}:${uuid}`);

export const batchExportGlobalId = (projectId: string, uuid: string) =>
  encodeGlobalId('BatchExport', `${projectId}:${uuid}`);
export const exportChildGlobalId = (
  typename: (typeof EXPORT_CHILD_TYPES)[number],
  projectId: string,
  exportUuid: string,
  uuid: string,
) => encodeGlobalId(typename, `${projectId}:${exportUuid}:${uuid}`);

export function decodeGlobalId(id: string, field = 'id'): GlobalId {
  const invalid = () =>
    badUserInput(
      `${field} is not a global id of this API; use the \`id\` of a Project, a DestinationConfig, a HogFunction, a HogFunctionRevision, a BatchExport, a BatchExportRun or a BatchExportBackfill.`,
      {
        field,
      },
    );
  if (id.length > MAX_ID_LENGTH || !/^[A-Za-z0-9+/]+={0,2}$/.test(id)) throw invalid();
  const text = Buffer.from(id, 'base64').toString('utf8');
  // Only the canonical encoding is accepted: no second spelling of the same id.
  if (Buffer.from(text, 'utf8').toString('base64') !== id) throw invalid();
  // One spelling: a project id is written without leading zeros (as the gateway writes it).
  if (/^0\d/.test(text.split(':')[1] ?? '')) throw invalid();
  const project = PROJECT.exec(text);
  if (project) return { typename: 'Project', projectId: project[1]! };
  const config = CONFIG.exec(text);
  const databaseId = configIdFromText(config?.[2]);
  if (config && databaseId !== null)
    return { typename: 'DestinationConfig', projectId: config[1]!, databaseId };
  const byUuid = BY_UUID.exec(text);
  if (byUuid)
    return { typename: byUuid[1] as (typeof UUID_TYPES)[number], projectId: byUuid[2]!, uuid: byUuid[3]! };
  const revision = REVISION.exec(text);
  if (revision)
    return {
      typename: 'HogFunctionRevision',
      projectId: revision[1]!,
      uuid: revision[2]!,
      version: Number(revision[3]),
    };
  const child = EXPORT_CHILD.exec(text);
  if (child)
    return {
      typename: child[1] as 'BatchExportRun',
      projectId: child[2]!,
      exportUuid: child[3]!,
      uuid: child[4]!,
    };
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

export function decodeHogFunctionGlobalId(id: string, field = 'id') {
  const decoded = decodeGlobalId(id, field);
  if (decoded.typename !== 'HogFunction') {
    throw badUserInput(`${field} must be the id of a HogFunction, not of a ${decoded.typename}.`, { field });
  }
  return decoded;
}

/** A global id that must be of `typename`: BAD_USER_INPUT naming the type it is otherwise. */
export function decodeGlobalIdOf<T extends GlobalId['typename']>(typename: T, id: string, field = 'id') {
  const decoded = decodeGlobalId(id, field);
  if (decoded.typename !== typename) {
    throw badUserInput(`${field} must be the id of a ${typename}, not of a ${decoded.typename}.`, { field });
  }
  return decoded as Extract<GlobalId, { typename: T }>;
}
