// ActivityUser: who made an activity log entry, as the upstream describes them.
import { builder } from './builder.ts';
import { ActivityUserRef } from './refs.ts';

builder.objectType(ActivityUserRef, {
  description: 'The user who made a change (null on the entry for system changes).',
  fields: (t) => ({
    id: t.id({
      description: 'The user’s UUID.',
      resolve: (user) => user.uuid ?? String(user.id ?? ''),
    }),
    databaseId: t.int({
      nullable: true,
      description: 'The user’s integer id upstream.',
      resolve: (u) => u.id,
    }),
    uuid: t.exposeString('uuid', { nullable: true, description: 'The user’s UUID.' }),
    distinctId: t.exposeString('distinctId', {
      nullable: true,
      description: 'The user’s distinct id.',
    }),
    firstName: t.exposeString('firstName', { nullable: true, description: 'First name.' }),
    lastName: t.exposeString('lastName', { nullable: true, description: 'Last name.' }),
    email: t.exposeString('email', { nullable: true, description: 'E-mail address.' }),
    isEmailVerified: t.exposeBoolean('isEmailVerified', {
      nullable: true,
      description: 'Whether the e-mail address is verified.',
    }),
    hedgehogConfig: t.expose('hedgehogConfig', {
      type: 'JSON',
      nullable: true,
      description: 'The user’s hedgehog settings, as the upstream sends them.',
    }),
  }),
});
