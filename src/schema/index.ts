// The schema: each resource file adds its types and the fields that return them.
import { lexicographicSortSchema, printSchema } from 'graphql';
import './scalars.ts';
import './project.ts';
import './activity-user.ts';
import './activity-log.ts';
import './activity-entry-origin.ts';
import './activity-notifications.ts';
import './destination-config.ts';
import './destination-config-mutations.ts';
import './hog-function.ts';
import './hog-function-lists.ts';
import './hog-function-template.ts';
import './hog-function-runs.ts';
import './hog-function-mutations.ts';
import './batch-export.ts';
import './hog-function-history.ts';
import './hog-function-review-mutations.ts';
import './batch-export-runs.ts';
import './batch-export-run-lists.ts';
import './batch-export-mutations.ts';
import './destination.ts';
import './node.ts';
import './subscription.ts';
import { builder } from './builder.ts';
import { GATEWAY_DIRECTIVES } from './directives.ts';
import { readPlainFieldsInline } from './plain-fields.ts';

export const schema = readPlainFieldsInline(builder.toSchema({ directives: GATEWAY_DIRECTIVES }));

/** schema.graphql's text: sorted, so that the committed file changes only when the schema does. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
