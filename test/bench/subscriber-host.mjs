// A process of the fan-out bench holding subscribers (forked by fan-out-fleet.ts), so that
// 20,000 of them do not need 20,000 descriptors in one process. Asked `{ open: { urls, count,
// key, body } }`, it opens `count` SSE subscriptions, spread over `urls` in turn, 200 at a time,
// and answers `{ opened }`; it notes when each first hears `event: next` (wall-clock ms), and
// answers `{ arrivals, refused }` (those answered a coded error instead) to `{ report: true }`. `{ close: true }` lets them all go and exits.
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const arrivals = [];
let refused = 0;
const requests = [];
const now = () => performance.timeOrigin + performance.now();

function subscribe(url, key, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: key },
    });
    let seen = false;
    req.on('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`subscription answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        if (!seen && chunk.includes('event: next')) {
          seen = true;
          // Refused (over a cap): a coded error instead of the stream.
          if (chunk.includes('"errors"')) refused++;
          else arrivals.push(now());
        }
      });
      res.on('error', () => {});
      resolve();
    });
    req.on('error', (error) => (seen ? undefined : reject(error)));
    req.end(body);
    requests.push(req);
  });
}

process.on('message', async (message) => {
  if (message.open) {
    const { urls, count, key, body } = message.open;
    let failed = 0;
    for (let opened = 0; opened < count; opened += 200) {
      const batch = Math.min(200, count - opened);
      const results = await Promise.allSettled(
        Array.from({ length: batch }, (_, i) => subscribe(urls[(opened + i) % urls.length], key, body)),
      );
      failed += results.filter((r) => r.status === 'rejected').length;
    }
    process.send({ opened: count - failed, failed });
  } else if (message.report) {
    process.send({ arrivals, refused });
  } else if (message.close) {
    for (const req of requests) req.destroy();
    agent.destroy();
    process.exit(0);
  }
});
