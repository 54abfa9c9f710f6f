// GraphiQL for browsers: compressed as accepted, with an ETag that a browser revalidates with a
// 304, and nothing in the page that would make it fetch from another host.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickEncoding } from '../src/server/graphiql-page.ts';
import { type Harness, startHarness } from './support/harness.ts';

/** A raw GET (fetch would decompress and hide what was sent). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('the GraphiQL page', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('is served brotli or gzip compressed as accepted, the same page each way', async () => {
    const br = await rawGet(h.url, { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' });
    const gz = await rawGet(h.url, { accept: 'text/html', 'accept-encoding': 'gzip' });
    const plain = await rawGet(h.url, { accept: 'text/html' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const answer of [br, gz, plain]) {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers.etag).toBe(plain.headers.etag);
    }
    const html = plain.body.toString('utf8');
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(html);
    expect(gunzipSync(gz.body).toString('utf8')).toBe(html);
    expect(br.body.length).toBeLessThan(html.length / 4);
    expect(html).toContain('CombinedView');
    // Every script and style is inline: nothing to fetch from another host.
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="(https?:)?\/\//);
  });

  it('answers 304 to a browser that already has it', async () => {
    const first = await rawGet(h.url, { accept: 'text/html', 'accept-encoding': 'br' });
    const again = await rawGet(h.url, {
      accept: 'text/html',
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('reads Accept-Encoding with its q-values', () => {
    expect(pickEncoding('gzip, br;q=0')).toBe('gzip');
    expect(pickEncoding('br;q=0.5, gzip;q=1')).toBe('br');
    expect(pickEncoding('identity')).toBe('identity');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding(null)).toBe('identity');
  });
});
