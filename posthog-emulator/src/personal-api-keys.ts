// GET /api/personal_api_keys/@current/: a personal API key reads itself
// (posthog/api/personal_api_key.py@43ac4cf371f8a7847f549cf187b98092f05cf779: PersonalAPIKeyViewSet,
// `get_object` on "@current", PersonalApiKeySelfAccessPermission allowing a personal key only
// `retrieve` of itself, no scope asked; PersonalAPIKeySerializer's fields, `scopes` empty or null
// answered as ["*"]). Only posthog-2026 routes it here: elsewhere it is Django's 404.
import { createHash } from 'node:crypto';
import { permissionDenied } from './http/api-error.ts';
import { CUSTOM_ACTION_REFUSED } from './http/auth.ts';
import { ok, type Reply, type RouteContext } from './http/reply.ts';
import type { ApiKey } from './model.ts';
import type { Route } from './routes.ts';

/** When every seeded key was made (the emulator has no history of keys). */
const CREATED_AT = '2026-01-05T09:00:00Z';

/** PersonalAPIKeySerializer's answer for `key` (`value` is only answered on create and roll). */
export function personalApiKeyJson(key: ApiKey): Record<string, unknown> {
  const scopes = key.scopes && key.scopes.length > 0 ? key.scopes : ['*'];
  return {
    id: createHash('sha256').update(key.value).digest('hex').slice(0, 26),
    label: `Key of user ${key.userId}`,
    value: null,
    // posthog/models/utils.py, mask_key_value: the first and last four characters.
    mask_value: key.value.length < 8 ? '********' : `${key.value.slice(0, 4)}...${key.value.slice(-4)}`,
    created_at: CREATED_AT,
    last_used_at: null,
    user_id: key.userId,
    scopes,
    scoped_teams: key.scopedTeams ?? [],
    scoped_organizations: key.scopedOrganizations ?? [],
    last_rolled_at: null,
  };
}

function retrieveCurrent(ctx: RouteContext): Reply {
  return ok(personalApiKeyJson(ctx.key));
}

/** Any other action is refused to a personal key by PersonalApiKeySelfAccessPermission. */
function refuseOtherActions(): Reply {
  throw permissionDenied(CUSTOM_ACTION_REFUSED);
}

const refused = { scope: 'INTERNAL', handle: refuseOtherActions };

export const PERSONAL_API_KEY_ROUTES: Route[] = [
  {
    pattern: /^\/api\/personal_api_keys\/@current\/?$/,
    projectScoped: false,
    selfAccess: true,
    dialects: ['posthog-2026'],
    methods: {
      GET: { scope: 'INTERNAL', handle: retrieveCurrent },
      PATCH: refused,
      PUT: refused,
      DELETE: refused,
    },
  },
];
