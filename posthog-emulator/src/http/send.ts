// Writes a reply: JSON or text, with its length.
import type { ServerResponse } from 'node:http';
import type { Reply } from './reply.ts';

export function send(res: ServerResponse, reply: Reply & { headers?: Record<string, string> }): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...reply.headers };
  let payload: string | undefined;
  if (reply.text !== undefined) {
    headers['content-type'] = reply.contentType ?? 'text/plain';
    payload = reply.text;
  } else if (reply.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(reply.json);
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(reply.status, headers).end(payload);
}
