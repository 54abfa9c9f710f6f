// The name the gateway gives PostHog for itself on every write: `x-posthog-client:
// destinations-graphql-gateway/<version>`, read from package.json once, when this module loads at
// start-up. PostHog records the header as the activity log entry's `client`
// (posthog/models/activity_logging/activity_log.py@7c88b78, ActivityLog.client: "usually the
// self-reported x-posthog-client request header"), so its own log says which changes came
// through the gateway.
import { createRequire } from 'node:module';

const manifest = createRequire(import.meta.url)('../../package.json') as { name: string; version: string };

/** `<package name>/<package version>`. */
export const GATEWAY_CLIENT = `${manifest.name}/${manifest.version}`;

/** The header PostHog reads the client from. */
export const CLIENT_HEADER = 'x-posthog-client';

/** A write: every method but a read's (GET, HEAD, OPTIONS) changes something PostHog logs. */
export const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
