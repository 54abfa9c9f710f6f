// GraphiQL at /graphql for browsers. The page inlines GraphiQL's scripts (yoga's default page
// loads them from a CDN, which a gateway on a closed network cannot reach), so it is 9 MB of HTML:
// - it is rendered on the first request that asks for it (the module that holds the scripts is
//   imported then, not at start-up), and kept only compressed;
// - it is served brotli- or gzip-compressed as the browser accepts, with a strong ETag and
//   `Cache-Control: no-cache`, so a browser downloads it once and revalidates it with a 304.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gunzip, gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

export interface GraphiQLPageOptions {
  title: string;
  defaultQuery: string;
  /** GraphiQL's Headers tab, as JSON text; only ever set for the embedded reference upstream. */
  headers?: string;
}

interface CompressedPage {
  etag: string;
  br: Buffer;
  gzip: Buffer;
}

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);
const decompressGzip = promisify(gunzip);

async function renderCompressed(options: GraphiQLPageOptions): Promise<CompressedPage> {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const html = Buffer.from(renderGraphiQL(options), 'utf8');
  const [br, gz] = await Promise.all([
    // Quality 9 compresses 9 MB in well under a second, within a few percent of quality 11.
    compressBrotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    compressGzip(html, { level: 9 }),
  ]);
  return { etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`, br, gzip: gz };
}

/** Which encoding to answer with, from Accept-Encoding (q=0 refuses one). */
export function pickEncoding(acceptEncoding: string | null): 'br' | 'gzip' | 'identity' {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const quality = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (quality('br') > 0) return 'br';
  if (quality('gzip') > 0) return 'gzip';
  return 'identity';
}

const isPageRequest = (request: Request, url: URL, endpoint: string) =>
  request.method === 'GET' &&
  (url.pathname === endpoint || url.pathname === `${endpoint}/`) &&
  (request.headers.get('accept') ?? '').includes('text/html');

export function useGraphiQLPage(endpoint: string, options: GraphiQLPageOptions): Plugin {
  let page: Promise<CompressedPage> | null = null;
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (!isPageRequest(request, url, endpoint)) return;
      page ??= renderCompressed(options).catch((error: unknown) => {
        page = null;
        throw error;
      });
      return page.then(async (compressed) => {
        const common = {
          etag: compressed.etag,
          'cache-control': 'no-cache',
          vary: 'Accept-Encoding',
        };
        if (request.headers.get('if-none-match') === compressed.etag) {
          endResponse(new fetchAPI.Response(null, { status: 304, headers: common }));
          return;
        }
        const encoding = pickEncoding(request.headers.get('accept-encoding'));
        const body = encoding === 'identity' ? await decompressGzip(compressed.gzip) : compressed[encoding];
        const headers: Record<string, string> = {
          ...common,
          'content-type': 'text/html; charset=utf-8',
          'content-length': String(body.byteLength),
        };
        if (encoding !== 'identity') headers['content-encoding'] = encoding;
        endResponse(new fetchAPI.Response(new Uint8Array(body), { status: 200, headers }));
      });
    },
  };
}
