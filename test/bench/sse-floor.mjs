// The fan-out floor of `npm run bench`: a bare node:http server, no GraphQL, holding every SSE
// request it gets open (a ping first, as the gateway writes), and writing one `event: next` to
// each when any other request comes (the bench's write). What N open event streams cost Node
// itself, and how long one write takes to reach them all.
import { createServer } from 'node:http';

const held = new Set();
const PING = Buffer.from(':\n\n');
const EVENT = Buffer.from(
  `event: next\ndata: ${JSON.stringify({ data: { activityAdded: { id: '1', activity: 'created', scope: 'PluginConfig', itemId: '99' } } })}\n\n`,
);

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.headers.accept?.includes('text/event-stream')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(PING);
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    for (const stream of held) stream.write(EVENT);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/graphql`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
