// A thin REST caller for the reference upstream's own tests: real HTTP through fetch.
import type { ReferenceUpstream } from '../src/server.ts';

export interface RestOptions {
  key?: string | null;
  json?: unknown;
  form?: Record<string, string>;
  multipart?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface RestAnswer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are inspected field by field.
  body: any;
}

export async function rest(
  upstream: ReferenceUpstream,
  method: string,
  path: string,
  options: RestOptions = {},
): Promise<RestAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? 'phx_full' : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: RequestInit['body'];
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = new URLSearchParams(options.form);
  } else if (options.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(options.multipart)) form.append(k, v);
    body = form;
  }
  const response = await fetch(new URL(path, upstream.url), { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** Only the offset/limit or cursor of an upstream link, whatever host it names. */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
