// `viewer`: what the caller's key may do, as PostHog answers it to the key itself
// (GET /api/personal_api_keys/@current/, loaders/key-grants.ts), so that a UI can hide what would
// fail FORBIDDEN before it asks.
import { mapMaybePromise } from '../core/maybe-promise.ts';
import type { KeyGrant } from '../upstream/keys/grants.ts';
import { builder } from './builder.ts';
import { priced } from './cost/price.ts';

const ViewerRef = builder.objectRef<{ grant: KeyGrant | null }>('Viewer');

builder.objectType(ViewerRef, {
  description:
    'The caller’s personal API key as PostHog answers it to the key itself (GET /api/personal_api_keys/@current/, read once per key and kept KEY_SCOPES_REFRESH_MS): its scopes and the projects and organizations it is limited to. Unknown (null lists, `known` false) for a credential that cannot read itself (an OAuth token), an upstream without that route, or a gateway with KEY_SCOPES_REFRESH_MS=0. A key PostHog refuses (401) gets UNAUTHENTICATED instead, as every field does.',
  fields: (t) => ({
    known: t.boolean({
      description:
        'Whether PostHog said what the key may do; false: every field is asked of PostHog, as it comes.',
      resolve: ({ grant }) => grant !== null,
    }),
    scopes: t.stringList({
      nullable: true,
      description:
        'The key’s scopes, e.g. ["hog_function:read", "batch_export:write"], or ["*"] for every scope; `x:write` grants `x:read`. A field whose scopes line names none of them fails FORBIDDEN without a call. Null when unknown.',
      resolve: ({ grant }) => (grant ? [...grant.scopes] : null),
    }),
    projectIds: t.stringList({
      nullable: true,
      description:
        'The integer ids of the projects the key is limited to (its scoped teams); a field of any other project fails FORBIDDEN without a call. Null when the key is not limited to projects, or when unknown.',
      resolve: ({ grant }) => (grant && grant.projectIds.length > 0 ? [...grant.projectIds] : null),
    }),
    organizationIds: t.stringList({
      nullable: true,
      description:
        'The UUIDs of the organizations the key is limited to (its scoped organizations). Null when the key is not limited to organizations, or when unknown.',
      resolve: ({ grant }) => (grant && grant.organizationIds.length > 0 ? [...grant.organizationIds] : null),
    }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerRef,
    nullable: false,
    description:
      'What the caller’s key may do (its scopes, projects and organizations), so that a UI can hide what would fail. Needs no scope: one GET /api/personal_api_keys/@current/ the first time a key is seen, none while it is kept. UNAUTHENTICATED when PostHog refuses the key (401), now or lately (KEY_REFUSED_TTL_MS), as every field then is.',
    extensions: priced({ calls: 1 }),
    resolve: (_root, _args, ctx) =>
      mapMaybePromise(ctx.loaders.keyGrant.grantOrRefusal(), (grant) => ({ grant })),
  }),
}));
