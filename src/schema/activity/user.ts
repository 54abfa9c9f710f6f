// ActivityUser: who made an activity log entry, as the upstream describes them.
import { builder } from '../builder.ts';
import { ActivityUserRef } from '../refs.ts';

builder.objectType(ActivityUserRef, {
  description:
    'A PostHog user, as an activity log entry’s `user` or a hog function’s `createdBy` names them (null there for the system).',
  fields: (t) => ({
    id: t.id({
      description:
        'A stable id for the user: their UUID, or their integer id as text when PostHog sends no UUID. Not a global id.',
      resolve: (user) => user.uuid ?? String(user.id ?? ''),
    }),
    databaseId: t.int({
      nullable: true,
      description: 'The user’s integer id in PostHog: what activityLog’s `userId` argument takes.',
      resolve: (u) => u.id,
    }),
    uuid: t.exposeString('uuid', {
      nullable: true,
      description:
        'The user’s UUID as PostHog sends it; null when it sends none (then `id` is the integer id).',
    }),
    distinctId: t.exposeString('distinctId', {
      nullable: true,
      description: 'The distinct id PostHog’s own events about this user carry; null when not sent.',
    }),
    firstName: t.exposeString('firstName', {
      nullable: true,
      description: 'The user’s first name as set in PostHog; null or empty when not set.',
    }),
    lastName: t.exposeString('lastName', {
      nullable: true,
      description: 'The user’s last name as set in PostHog; null or empty when not set.',
    }),
    email: t.exposeString('email', {
      nullable: true,
      description: 'The e-mail address the user signs in with; null when PostHog leaves it out.',
    }),
    isEmailVerified: t.exposeBoolean('isEmailVerified', {
      nullable: true,
      description: 'Whether the user has confirmed `email`; null when PostHog does not say.',
    }),
    hedgehogConfig: t.expose('hedgehogConfig', {
      type: 'JSON',
      nullable: true,
      description: 'The user’s hedgehog mascot settings, as PostHog sends them (an object); null when none.',
    }),
  }),
});
