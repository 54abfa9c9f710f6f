// The package's surface: start a reference upstream in process, and the types a test reads from it.
export type { BatchExportSettings } from './batch-exports/model.ts';
export { ALL_DIALECTS, DIALECTS, type Dialect } from './dialect.ts';
export type { AnswerHeadersRule } from './http/answer-headers.ts';
export type { FaultAction, FaultRule } from './http/faults.ts';
export type { ActivityEntry } from './model.ts';
export { type ReferenceUpstream, type ReferenceUpstreamOptions, startReferenceUpstream } from './server.ts';
export type { RequestLogEntry } from './state.ts';
export type { Store } from './store.ts';
