// What a secret reads as, and the names that read as credentials, for the redaction files
// (secret-redaction.ts and its siblings). A name is a fallback only: where PostHog's answer says
// which fields are secret (a schema, a destination type), that is what decides.

/** What a secret input or destination field reads as, as PostHog answers a hog function's. */
export const SECRET_INPUT = Object.freeze({ secret: true });
/** What a masked activity value reads as (PostHog's `changes_between` writes "masked"). */
export const MASKED_CHANGE = 'masked';
/**
 * What a plugin config's secret reads as: PluginConfigSerializer.get_config's SECRET_FIELD_VALUE
 * (posthog/api/plugin.py@fdc934b, now products/cdp/backend/api/plugin.py).
 */
export const PLUGIN_SECRET_MASK = '**************** POSTHOG SECRET FIELD ****************';

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Credential words, matched in a name lowercased with its separators removed, so that
 * `aws_secret_access_key`, `awsSecretAccessKey` and `AWS-Secret` read alike.
 */
const CREDENTIAL =
  /secret|passw|passphrase|token|credential|privatekey|apikey|keyjson|connectionstring|signingkey/;

/** Whether a field's name reads as a credential's. */
export function namesCredential(name: string): boolean {
  return CREDENTIAL.test(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** A value a redaction replaces: anything but null, undefined and the empty string. */
export const holdsValue = (value: unknown) => value !== null && value !== undefined && value !== '';
