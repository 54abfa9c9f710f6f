// What a route handler gets and gives, shared by the handlers of every resource.
import type { ParsedBody } from './body.ts';
import type { Dialect } from '../dialect.ts';
import type { ApiKey, Project } from '../model.ts';
import type { RequestUrl } from './pagination.ts';
import type { Store } from '../store.ts';

export interface RouteContext {
  store: Store;
  dialect: Dialect;
  key: ApiKey;
  project: Project;
  url: RequestUrl;
  params: Record<string, string>;
  body: ParsedBody;
}

export interface Reply {
  status: number;
  json?: unknown;
  text?: string;
  contentType?: string;
}

export const ok = (json: unknown, status = 200): Reply => ({ status, json });
export const empty = (status: number): Reply => ({ status });
