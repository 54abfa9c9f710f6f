// GET /api/projects/:id/batch_exports/test/?destination=<type>: BatchExportViewSet.test in
// products/batch_exports/backend/presentation/views/batch_export/exports.py@0551d5e, a list action
// with required_scopes batch_export:read. No `destination` is an empty 400; a type
// get_destination_test does not know is an empty 404 (destination_tests/__init__.py, code-index
// id 70770660397); else the unconfigured test as DestinationTest.as_dict answers it: its steps,
// each {name, description, result: null} (destination_tests/base.py@efcc75f). Steps, in order:
// destination_tests/s3.py@758908d, azure_blob.py@758908d, bigquery.py@9a9f45e,
// snowflake.py@1047787, databricks.py@1fcfbf7.
import { empty, ok, type Reply, type RouteContext } from '../http/reply.ts';

type Step = [name: string, description: string];

const S3_BUCKET: Step = [
  'Check S3 bucket exists',
  'Ensure the configured S3 bucket exists and that we have the required permissions to access it.',
];

/** Each step of a database or warehouse: "Verify <product> <object>". */
const verify = (product: string, object: string): Step => [
  `Verify ${product} ${object}`,
  `Verify the configured ${product} ${object} exists and we have the necessary permissions to use it.`,
];

const connect = (product: string): Step => [
  `Establish connection to ${product}`,
  `Attempt to establish a ${product} connection with the provided configuration values.`,
];

const bigQueryAccess = (object: string): Step => [
  `Verify BigQuery ${object}`,
  `Ensure the configured BigQuery ${object} exists and that we have the required permissions to access it.`,
];

/** get_destination_test: the destination types that have a test, and its steps. */
const DESTINATION_TESTS: Record<string, Step[]> = {
  AwsS3: [
    [
      'Ensure we can assume provided AWS role',
      'Ensure the configured AWS role ARN exists and that we have the required trust relationship to assume it.',
    ],
    S3_BUCKET,
  ],
  S3Compatible: [S3_BUCKET],
  BigQuery: [
    ['Impersonate BigQuery service account', 'Confirm we can impersonate a BigQuery service account.'],
    [
      'Verify BigQuery service account ownership',
      'Confirm that the current PostHog organization owns a BigQuery service account by ensuring its organization ID is set as part of the service account description.',
    ],
    bigQueryAccess('project'),
    bigQueryAccess('dataset'),
    [
      'Verify BigQuery table',
      'Ensure the configured BigQuery table already exists or that we have the required permissions to create it. Additionally, when creating a table, we will attempt to delete it.',
    ],
  ],
  Snowflake: [
    connect('Snowflake'),
    verify('Snowflake', 'warehouse'),
    verify('Snowflake', 'database'),
    verify('Snowflake', 'schema'),
  ],
  Databricks: [
    connect('Databricks'),
    verify('Databricks', 'catalog'),
    verify('Databricks', 'schema'),
    [
      'Verify Databricks table',
      'Ensure the configured Databricks table already exists or that we have the required permissions to create it. Additionally, when creating this test table, we will attempt to delete it.',
    ],
    [
      'Verify permissions to create a Databricks volume',
      'Ensure we have the required permissions to create a Databricks volume. We need to create temporary volumes as part of the batch export process.',
    ],
  ],
  AzureBlob: [
    [
      'Check Azure Blob container exists',
      'Ensure the configured container exists and that we have the required permissions to access it.',
    ],
  ],
};

// products/batch_exports/backend/presentation/views/batch_export/exports.py@0551d5e, BatchExportViewSet.test
export function destinationTest(ctx: RouteContext): Reply {
  const destination = ctx.url.query.get('destination');
  if (!destination) return empty(400);
  const steps = Object.hasOwn(DESTINATION_TESTS, destination) ? DESTINATION_TESTS[destination] : undefined;
  if (!steps) return empty(404);
  return ok({ steps: steps.map(([name, description]) => ({ name, description, result: null })) });
}
