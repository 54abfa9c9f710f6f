// The schema: each resource file adds its types and the fields that return them.
import { lexicographicSortSchema, printSchema } from 'graphql';
import './scalars.ts';
import './project.ts';
import './activity/user.ts';
import './activity/log.ts';
import './activity/entry-origin.ts';
import './activity/notifications.ts';
import './destination-configs/type.ts';
import './destination-configs/mutations.ts';
import './hog-functions/type.ts';
import './hog-functions/lists.ts';
import './hog-functions/template.ts';
import './hog-functions/runs.ts';
import './hog-functions/closed-sets.ts';
import './hog-functions/mutations.ts';
import './batch-exports/type.ts';
import './hog-functions/history.ts';
import './hog-functions/review-mutations.ts';
import './batch-exports/runs.ts';
import './batch-exports/run-lists.ts';
import './batch-exports/closed-sets.ts';
import './batch-exports/mutations.ts';
import './destination.ts';
import './destination-health.ts';
import './destination-health-changed.ts';
import './node.ts';
import './subscription.ts';
import './viewer.ts';
import { builder } from './builder.ts';
import { withPrices } from './cost/sdl.ts';
import { GATEWAY_DIRECTIVES } from './directives.ts';
import { readPlainFieldsInline } from './plain-fields.ts';
import { gateScopes } from './scope-gate.ts';

export const schema = gateScopes(readPlainFieldsInline(builder.toSchema({ directives: GATEWAY_DIRECTIVES })));

/**
 * schema.graphql's text: sorted, so that the committed file changes only when the schema does,
 * with each field's declared price (@cost, @listSize).
 */
export const printedSchema = () => `${withPrices(schema, printSchema(lexicographicSortSchema(schema)))}\n`;
