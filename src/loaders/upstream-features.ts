// What the gateway has learnt of the upstream itself (not of any caller): whether it serves a
// route some PostHog versions lack. Learnt from an answer ("Endpoint not found." on any key) and
// kept per gateway process, so that later requests neither ask again nor price the operation as
// if the route were there (schema/cost/estimate.ts).
export class UpstreamFeatures {
  /** PostHog's advanced_activity_logs (item_ids, scopes): unknown until a request tries it. */
  advancedActivityLogs: boolean | undefined = undefined;
  /** GET /api/personal_api_keys/@current/ (a key reads its own scopes): learnt as the gateway starts. */
  personalKeySelf: boolean | undefined = undefined;
}
