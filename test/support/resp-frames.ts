// Redis's replies (RESP2 and RESP3) cut into whole frames as their bytes arrive, for the tap
// (processes.ts): it passes a subscriber connection's answers to its pings and subscriptions
// while it drops the published messages.

/** Where the element starting at `at` ends, or -1 when its bytes have not all come. */
function elementEnd(bytes: Buffer, at: number): number {
  const lineEnd = bytes.indexOf('\r\n', at, 'latin1');
  if (lineEnd < 0) return -1;
  const type = String.fromCharCode(bytes[at]!);
  const size = Number(bytes.toString('latin1', at + 1, lineEnd));
  let end = lineEnd + 2;
  switch (type) {
    case '$': // bulk string
    case '=': // verbatim string
    case '!': // bulk error
      if (size < 0) return end;
      return end + size + 2 <= bytes.length ? end + size + 2 : -1;
    case '*': // array
    case '>': // push
    case '~': // set
    case '%': // map
    case '|': {
      // attribute
      const count = type === '%' || type === '|' ? 2 * size : size;
      for (let i = 0; i < count && end >= 0; i++) end = elementEnd(bytes, end);
      return end;
    }
    default: // simple string, error, integer, null, boolean, double, big number
      return end;
  }
}

/** Whether the frame is a message published to a channel (or pattern) the connection follows. */
function isPublished(frame: Buffer): boolean {
  return /^[*>][34]\r\n\$\d+\r\n(message|pmessage)\r\n/.test(frame.toString('latin1', 0, 32));
}

/** Cuts a connection's replies into frames; `onFrame` hears each, and whether it was published. */
export class RespFrames {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly onFrame: (frame: Buffer, published: boolean) => void) {}

  push(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let at = 0;
    for (;;) {
      const end = at < this.pending.length ? elementEnd(this.pending, at) : -1;
      if (end < 0) break;
      const frame = this.pending.subarray(at, end);
      this.onFrame(frame, isPublished(frame));
      at = end;
    }
    this.pending = this.pending.subarray(at);
  }
}
