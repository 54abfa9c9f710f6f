// What every mutation payload shares: `clientMutationId`, echoed from the input, and the shape of
// a delete's answer (the deleted object's global id).
import { builder } from './builder.ts';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type Echoes = { clientMutationId: string | null };

/** What an input's `clientMutationId` is for (Relay's convention). */
export const CLIENT_MUTATION_ID =
  'Any string you choose, returned unchanged as the payload’s clientMutationId to tell answers apart.';

/** The `clientMutationId` field of a payload. */
export const clientMutationIdField = <P extends Echoes>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, P>) =>
  t.string({
    nullable: true,
    description: 'The input’s clientMutationId, returned unchanged; null when the input had none.',
    resolve: (p) => p.clientMutationId,
  });

/** A delete's payload: the echo and the deleted object's global id. */
export const deletePayload = (name: string, description: string, deleted: string) =>
  builder.objectRef<Echoes & { deletedId: string }>(name).implement({
    description,
    fields: (t) => ({
      clientMutationId: clientMutationIdField(t),
      deletedId: t.exposeID('deletedId', { description: `The global id of the deleted ${deleted}.` }),
    }),
  });
