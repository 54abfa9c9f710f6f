// Connection cursors are opaque to callers and signed by the gateway: a cursor that was altered,
// or that belongs to another connection, is BAD_USER_INPUT before any upstream call, and no
// caller-made value reaches the upstream as a cursor. The signing key is CURSOR_SECRET, or a
// random one per process (cursors then do not outlive a restart).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { badUserInput } from '../upstream/errors.ts';

const SIGNATURE_BYTES = 12;
const MAX_CURSOR_LENGTH = 4_096;

export interface CursorPayload {
  /** Which connection the cursor belongs to; decoding for another one fails. */
  k: string;
}

export class CursorCodec {
  private readonly key: Buffer;

  constructor(secret: string | null) {
    this.key = secret ? Buffer.from(secret, 'utf8') : randomBytes(32);
  }

  private sign(body: string): Buffer {
    return createHmac('sha256', this.key).update(body).digest().subarray(0, SIGNATURE_BYTES);
  }

  encode(payload: CursorPayload): string {
    const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return `${body}.${this.sign(body).toString('base64url')}`;
  }

  decode<T extends CursorPayload>(cursor: string, kind: string, argument: string): T {
    const invalid = () =>
      badUserInput(`\`${argument}\` is not a cursor of this connection; pass a cursor this field returned.`, {
        field: argument,
      });
    if (cursor.length > MAX_CURSOR_LENGTH) throw invalid();
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) throw invalid();
    // Compared as text: base64url decoding ignores stray trailing characters, the text does not.
    const expected = Buffer.from(this.sign(body).toString('base64url'));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    if (!payload || typeof payload !== 'object' || (payload as CursorPayload).k !== kind) throw invalid();
    return payload as T;
  }
}
