// A tiny static file server on 127.0.0.1, port 0: the files of one folder (index.html at /), as a
// browser page's own host would serve them, apart from the gateway (so that its calls to the
// gateway are cross-origin). It records the paths asked for.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.css': 'text/css; charset=utf-8',
};

export interface StaticFiles {
  /** http://127.0.0.1:<port>: the page's origin. */
  origin: string;
  /** Every path asked for, with its query, in order. */
  requested: string[];
  close(): Promise<void>;
}

export async function serveStaticFiles(folder: string): Promise<StaticFiles> {
  const requested: string[] = [];
  const server = createServer(async (request, response) => {
    requested.push(request.url ?? '');
    const path = new URL(request.url ?? '/', 'http://page').pathname;
    const file = normalize(join(folder, path === '/' ? 'index.html' : path));
    const type = TYPES[extname(file)];
    if (!file.startsWith(folder) || !type) {
      response.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
