// POST :id/invocations/, a test run. Django's side is products/cdp/backend/api/hog_function.py at
// 0019077 (HogFunctionViewSet.invocations, HogFunctionInvocationSerializer): no `configuration`
// and no truthy `use_draft` is a ValidationError in the usual error shape; the serializer's own
// errors come back raw (`Response(serializer.errors, 400)`); a `configuration` is validated as a
// write to the stored function, so a secret input sent as {"secret": true} takes the stored
// value. An `:id` that names no function (`new` among them) runs as a new one. The run itself is
// the CDP worker's (nodejs/src/cdp/cdp-api.ts at 00972b5, postFunctionInvocation), whose refusals
// Django passes on as {"status": "error", "errors": [message]} with the worker's status.

import { serverError } from '../http/api-error.ts';
import { formatTimestamp } from '../dialect.ts';
import { type ErrorTree, fieldError, pyType, RawValidationError, viewValidationError } from './errors.ts';
import { readBoolean } from './fields.ts';
import { findHogFunction } from './routes.ts';
import { validateHogWrite } from './write.ts';
import { isDict, truthy } from './inputs.ts';
import type { HogFunction } from '../model.ts';
import { ok, type Reply, type RouteContext } from '../http/reply.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The types the worker runs; any other is "Invalid function type". */
const RUNNABLE = ['destination', 'internal_destination', 'transformation', 'transformation_log'];

const workerError = (status: number, message: string): Reply => ({
  status,
  json: { status: 'error', errors: [message] },
});

/** A DictField given something else. */
function dictError(value: unknown) {
  if (value === null) return [fieldError('This field may not be null.', 'null')];
  return [fieldError(`Expected a dictionary of items but got type "${pyType(value)}".`, 'not_a_dict')];
}

/** HogFunctionInvocationSerializer: every field's errors, or the validated configuration. */
function validateInvocation(ctx: RouteContext, fn: HogFunction | null): Record<string, unknown> {
  const data = ctx.body.data;
  const errors: ErrorTree = {};
  let configuration: Record<string, unknown> = {};
  if (data.configuration === null) errors.configuration = [fieldError('This field may not be null.', 'null')];
  // HogFunctionSerializer.to_internal_value copies the body with {**data}: a non-dict is a 500.
  else if (!isDict(data.configuration)) throw serverError();
  else {
    const outcome = validateHogWrite(data.configuration, {
      store: ctx.store,
      projectId: ctx.project.id,
      instance: fn,
      isCreate: false,
    });
    if ('errors' in outcome) errors.configuration = outcome.errors;
    else configuration = { type: outcome.fields.type, inputs: outcome.fields.inputs };
  }
  if (data.use_draft !== undefined) {
    const flag = readBoolean(data.use_draft);
    if (typeof flag !== 'boolean') errors.use_draft = [flag];
  }
  for (const field of ['globals', 'clickhouse_event'])
    if (data[field] !== undefined && !isDict(data[field])) errors[field] = dictError(data[field]);
  if (data.mock_async_functions !== undefined) {
    const flag = readBoolean(data.mock_async_functions);
    if (typeof flag !== 'boolean') errors.mock_async_functions = [flag];
  }
  const id = data.invocation_id;
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number')
    errors.invocation_id = [fieldError('Not a valid string.')];
  if (Object.keys(errors).length > 0) throw new RawValidationError(errors);
  return configuration;
}

/** convertToHogFunctionInvocationGlobals, as far as a test run needs it: the event. */
function globalsOf(data: Record<string, unknown>): Record<string, unknown> | undefined {
  const row = data.clickhouse_event;
  if (!isDict(row)) return data.globals as Record<string, unknown> | undefined;
  let properties: unknown = row.properties ?? {};
  if (typeof properties === 'string') properties = JSON.parse(properties);
  return { event: { uuid: row.uuid, event: row.event, distinct_id: row.distinct_id, properties } };
}

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.invocations (+ nodejs/src/cdp/cdp-api.ts, postFunctionInvocation)
export function invokeHogFunction(ctx: RouteContext): Reply {
  // `self.get_object()` failing (an unknown id, or `new`) leaves no function: it runs as a new one.
  const fn = findHogFunction(ctx);
  const data = ctx.body.data;
  // No function of the reference upstream has a staged draft.
  if (truthy(data.use_draft))
    throw viewValidationError('use_draft', 'This function has no staged draft to test.');
  if (!('configuration' in data))
    throw viewValidationError('configuration', 'Required unless use_draft is true.');
  const configuration = validateInvocation(ctx, fn);
  const invocationId = data.invocation_id ?? '0190ffff-0000-7000-8000-000000000000';
  if (typeof invocationId !== 'string' || !UUID.test(invocationId))
    return workerError(400, 'Invalid invocation ID');
  const globals = globalsOf(data);
  const type = String(configuration.type);
  if (type === 'transformation_log') {
    if (!isDict(globals?.record)) return workerError(400, 'Missing record');
  } else if (!globals || !truthy(globals.event)) return workerError(400, 'Missing event');
  if (!RUNNABLE.includes(type)) return workerError(400, 'Invalid function type');
  return ok(mockedRun(type, globals, data.mock_async_functions !== false));
}

/** The run, async functions mocked. Its log lines are the reference upstream's own (unverified). */
function mockedRun(type: string, globals: Record<string, unknown>, mocked: boolean) {
  const at = formatTimestamp(Date.parse('2026-11-25T00:00:00Z') * 1000);
  if (type === 'transformation_log')
    return { result: globals.record, status: 'success', errors: [], logs: [] };
  const event = globals.event as { event?: unknown };
  if (typeof event?.event !== 'string')
    return {
      result: null,
      status: 'error',
      errors: ['globals.event.event must be a string'],
      logs: [{ level: 'error', timestamp: at, message: 'Error executing function: invalid event' }],
    };
  return {
    // A transformation answers the event it made; a destination answers nothing.
    result: type === 'transformation' ? event : null,
    status: 'success',
    errors: [],
    logs: [
      { level: 'debug', timestamp: at, message: `Executing function (mock_async_functions: ${mocked})` },
      { level: 'info', timestamp: at, message: `Function completed for ${event.event}` },
    ],
  };
}
