// What the batch export tests share: the seeded ids, the serializer field order, a valid create body.
export const EXPORTS = '/api/projects/1/batch_exports/';
export const exportId = (n: number) => `018f0a5e-0020-7000-8000-${n.toString(16).padStart(12, '0')}`;
export const S3 = exportId(1);
export const POSTGRES = exportId(4);
export const WORKFLOWS = exportId(8);
export const REFUSED = 'This action does not support personal API key access';
export const EXPORT_FIELDS = [
  'id',
  'team_id',
  'name',
  'model',
  'destination',
  'interval',
  'paused',
  'created_at',
  'last_updated_at',
  'last_paused_at',
  'start_at',
  'end_at',
  'latest_runs',
  'hogql_query',
  'hogql_modifiers',
  'primary_key',
  'version_key',
  'incremental_mode',
  'schema',
  'filters',
  'timezone',
  'offset_day',
  'offset_hour',
];
export const SECRETS = [
  'aws_access_key_id',
  'aws_secret_access_key',
  'password',
  'user',
  'private_key',
  'private_key_id',
  'client_email',
  'token_uri',
];
export const newS3 = (extra: Record<string, unknown> = {}) => ({
  name: 'New S3',
  interval: 'hour',
  destination: {
    type: 'AwsS3',
    integration_id: 1,
    config: { bucket_name: 'b', region: 'us-east-1', prefix: 'p/' },
  },
  ...extra,
});
