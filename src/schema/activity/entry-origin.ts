// What made an activity log entry's change, as PostHog records it
// (posthog/models/activity_logging/activity_log.py@7c88b78): the request's self-reported client
// and the credential that authenticated it.
import { builder } from '../builder.ts';
import { ActivityLogEntryRef } from '../refs.ts';

builder.objectFields(ActivityLogEntryRef, (t) => ({
  client: t.exposeString('client', {
    nullable: true,
    description:
      'What made the change as PostHog records it: the x-posthog-client header of the request, e.g. destinations-graphql-gateway/<version> on writes made through this gateway; null when none was recorded.',
  }),
  credentialType: t.exposeString('credentialType', {
    nullable: true,
    description:
      'How the change was authenticated (personal_api_key, oauth, session, unattributed, ...); null where the upstream does not record it.',
  }),
}));
