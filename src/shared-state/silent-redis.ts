// How long a Redis command may go unanswered before its connection is taken as dead and made
// again (redis.ts gives it to ioredis as socketTimeout). Apart from the connection so that what
// must outlast it (a poller's lease: shared-polling.ts) knows it without loading ioredis, which
// only a gateway with REDIS_URL imports.
//
// A Redis that stalls without closing (a paused server, a network black hole) is then lost, as
// one that closes is, rather than ready and silent while each command waits on it for as long as
// it stays so. None of the gateway's commands blocks, and a working Redis answers each within
// milliseconds; a stall past this (a failover's pause) costs one reconnection. The pub/sub
// connection, which sends nothing while idle, is pinged with the presence beat so that this
// watches it too.
export const SILENT_REDIS_MS = 3_000;
