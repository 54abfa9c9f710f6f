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
    uuid: t.string({ nullable: true, description: 'The user’s UUID.', resolve: (u) => u.uuid }),
    distinctId: t.string({
      nullable: true,
      description: 'The user’s distinct id.',
      resolve: (u) => u.distinctId,
    }),
    firstName: t.string({ nullable: true, description: 'First name.', resolve: (u) => u.firstName }),
    lastName: t.string({ nullable: true, description: 'Last name.', resolve: (u) => u.lastName }),
    email: t.string({ nullable: true, description: 'E-mail address.', resolve: (u) => u.email }),
    isEmailVerified: t.boolean({
      nullable: true,
      description: 'Whether the e-mail address is verified.',
      resolve: (u) => u.isEmailVerified,
    }),
    hedgehogConfig: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The user’s hedgehog settings, as the upstream sends them.',
      resolve: (u) => u.hedgehogConfig,
    }),
  }),
});
