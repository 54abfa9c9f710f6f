// GraphiQL at /graphql for browsers. The page inlines GraphiQL's scripts (yoga's default page
// loads them from a CDN, which a gateway on a closed network cannot reach), so it is large:
// - it is rendered on the first request that asks for it (the module that holds the scripts is
//   imported then, not at start-up), and kept only compressed;
// - it is served brotli- or gzip-compressed as the browser accepts, with a strong ETag and
//   `Cache-Control: no-cache`, so a browser downloads it once and revalidates it with a 304.
// Keys: GraphiQL never stores the headers typed (`shouldPersistHeaders: false`), and the page
// drops any a browser stored before: a key typed is forgotten with the page, and a returning
// browser never sends an old (demo) key to another upstream. A line above GraphiQL says which
// upstream is behind the gateway, the demo keys when it is the embedded one, and where the docs are.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gunzip, gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

export interface GraphiQLPageOptions {
  title: string;
  defaultQuery: string;
  /** GraphiQL's Headers tab, as JSON text; only ever set for the embedded reference upstream. */
  headers?: string;
  /** What the page says is behind the gateway. */
  upstream: UpstreamShown;
}

export interface UpstreamShown {
  /** The upstream's origin. */
  url: string;
  /** The embedded reference upstream's dialect and demo keys; null for any other upstream. */
  demo: DemoUpstream | null;
}

export interface DemoUpstream {
  dialect: string;
  /** Each demo key with its scopes (null: an unscoped legacy key). */
  keys: readonly { value: string; scopes: readonly string[] | null }[];
}

/** Where a reader of the page learns about keys and scopes. */
export const DOCS_LINKS = [
  { title: 'PostHog personal API keys and their scopes', href: 'https://posthog.com/docs/api' },
] as const;

interface CompressedPage {
  etag: string;
  br: Buffer;
  gzip: Buffer;
}

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);
const decompressGzip = promisify(gunzip);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The line above GraphiQL: the upstream, the demo keys (demo only), the docs. */
function upstreamLine({ url, demo }: UpstreamShown): string {
  const where = demo
    ? `<strong>Demo</strong>: the embedded reference upstream (<code>${escapeHtml(demo.dialect)}</code> dialect, made-up data) at <code>${escapeHtml(url)}</code>. Demo keys: ${demo.keys
        .map(
          (key) =>
            `<code>${escapeHtml(key.value)}</code> (${escapeHtml(key.scopes?.join(', ') ?? 'unscoped')})`,
        )
        .join(', ')}. Set <code>UPSTREAM_URL</code> to use your PostHog.`
    : `Upstream: <code>${escapeHtml(url)}</code>. Send your PostHog personal API key as <code>{"Authorization": "Bearer &lt;key&gt;"}</code> in Headers (it is never stored).`;
  const docs = DOCS_LINKS.map(
    (link) => `<a href="${link.href}" target="_blank" rel="noreferrer">${link.title}</a>`,
  );
  return `<div id="gateway-upstream">${where} Docs: ${docs.join(' · ')}; this gateway's README.md and docs/ (errors-and-limits.md for every error code).</div>`;
}

/**
 * Runs before GraphiQL reads its storage: what a browser stored while headers were persisted (an
 * old demo key among them) is dropped, as GraphiQL itself now stores tabs (headers null). A tab
 * from storage then opens with no headers; a new tab (+) with this page's (the demo key, or none).
 */
const FORGET_STORED_HEADERS = `<script>
(function () {
  try {
    var storage = window.localStorage;
    storage.removeItem('graphiql:headers');
    storage.removeItem('graphiql:shouldPersistHeaders');
    var tabs = JSON.parse(storage.getItem('graphiql:tabState') || 'null');
    if (tabs && Array.isArray(tabs.tabs)) {
      tabs.tabs.forEach(function (tab) { tab.headers = null; });
      storage.setItem('graphiql:tabState', JSON.stringify(tabs));
    }
  } catch (e) {}
})();
</script>`;

const LINE_STYLE = `<style>
body { display: flex; flex-direction: column; height: 100vh; margin: 0; }
#gateway-upstream { font: 13px/1.4 system-ui, sans-serif; padding: 6px 12px; background: #fff8e1; color: #333; border-bottom: 1px solid #e0d7b5; }
#gateway-upstream code { font-size: 12px; }
#root { flex: 1; min-height: 0; }
#root .graphiql-container { height: 100%; width: 100%; }
</style>`;

/** yoga's GraphiQL page with headers never persisted, and the upstream line above it. */
export function renderPage(options: GraphiQLPageOptions, render: (options: object) => string): string {
  const { upstream, ...graphiql } = options;
  const html = render({ ...graphiql, defaultHeaders: graphiql.headers, shouldPersistHeaders: false });
  const body = /<body[^>]*>/.exec(html);
  if (!body) throw new Error('GraphiQL page without a <body>');
  const at = body.index + body[0].length;
  return `${html.slice(0, at)}${LINE_STYLE}${upstreamLine(upstream)}${FORGET_STORED_HEADERS}${html.slice(at)}`;
}

async function renderCompressed(options: GraphiQLPageOptions): Promise<CompressedPage> {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const html = Buffer.from(renderPage(options, renderGraphiQL), 'utf8');
  const [br, gz] = await Promise.all([
    // Quality 9: a fraction of quality 11's time, for nearly its size.
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
