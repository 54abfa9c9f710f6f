// The reference upstream's /__control: how a test in another process drives it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ParsedBody, readBody } from './http/body.ts';
import type { AnswerHeadersRule } from './http/answer-headers.ts';
import type { FaultRule } from './http/faults.ts';
import { setCohort } from './hog-functions/filter-compile.ts';
import { handleDraftControl } from './hog-functions/draft-edit.ts';
import { handleConfirmTokenControl } from './hog-functions/token-control.ts';
import { handleBatchExportRunControl, handleHogFunctionStatusControl } from './health-control.ts';
import { send } from './http/send.ts';
import type { UpstreamState } from './state.ts';

/** Drives the server from a test: the request log, faults, latency, the rate limit, a reset. */
export async function handleControl(
  state: UpstreamState,
  reset: () => void,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const parsed = await readBody(req).catch(() => ({ kind: 'none', data: {} }) as ParsedBody);
  const data = parsed.data as Record<string, unknown>;
  const route = `${req.method} ${url.pathname.replace(/\/$/, '')}`;
  switch (route) {
    case 'GET /__control/requests':
      return send(res, { status: 200, json: state.requests });
    case 'DELETE /__control/requests':
      state.requests.length = 0;
      return send(res, { status: 204 });
    case 'GET /__control/faults':
      return send(res, { status: 200, json: state.faults.list() });
    case 'POST /__control/faults':
      try {
        return send(res, { status: 201, json: { id: state.faults.add(data as unknown as FaultRule) } });
      } catch (error) {
        return send(res, { status: 400, json: { detail: (error as Error).message } });
      }
    case 'DELETE /__control/faults':
      state.faults.clear();
      return send(res, { status: 204 });
    case 'GET /__control/answer-headers':
      return send(res, { status: 200, json: state.faults.headers.list() });
    case 'POST /__control/answer-headers':
      try {
        const id = state.faults.headers.add(data as unknown as AnswerHeadersRule);
        return send(res, { status: 201, json: { id } });
      } catch (error) {
        return send(res, { status: 400, json: { detail: (error as Error).message } });
      }
    case 'DELETE /__control/answer-headers':
      state.faults.headers.clear();
      return send(res, { status: 204 });
    case 'PUT /__control/latency':
      state.faults.latency = {
        latencyMs: Number(data.latencyMs ?? 0),
        jitterMs: Number(data.jitterMs ?? 0),
      };
      return send(res, { status: 200, json: state.faults.latency });
    case 'PUT /__control/rate-limit':
      state.throttle.perMinute = data.perMinute == null ? null : Number(data.perMinute);
      state.throttle.reset();
      return send(res, { status: 200, json: { perMinute: state.throttle.perMinute } });
    case 'POST /__control/hog-function-draft':
      return handleDraftControl(state, data, res);
    case 'POST /__control/hog-function-publish-token':
      return handleConfirmTokenControl(state, data, res);
    case 'POST /__control/hog-function-status':
      return handleHogFunctionStatusControl(state, data, res);
    case 'POST /__control/batch-export-run':
      return handleBatchExportRunControl(state, data, res);
    case 'PUT /__control/cohorts':
      return send(res, setCohort(state.store, data));
    case 'POST /__control/reset':
      reset();
      return send(res, { status: 204 });
    default:
      return send(res, { status: 404, json: { detail: 'unknown control route' } });
  }
}
