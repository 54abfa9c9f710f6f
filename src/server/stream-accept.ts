// An answer in parts (a subscription, @live, @defer, @stream) needs a media type that carries
// parts: `text/event-stream` (SSE) or `multipart/mixed`. A request that accepts neither (only
// `application/json`, say) got yoga's 406 with an empty body, after the operation had started.
// Here it is refused before anything runs: 406 with a coded error naming the Accept to send.
// (The WebSocket transport asks as an SSE client does, so it always passes.)
import { type DocumentNode, type ExecutionArgs, Kind, visit } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { codedError } from '../errors/codes.ts';

const INCREMENTAL = new Set(['defer', 'stream', 'live']);
const PART_MEDIA_TYPES = ['text/event-stream', 'multipart/mixed'];

/** Whether the operation's answer comes in parts. */
function answersInParts(args: ExecutionArgs): boolean {
  const operations = args.document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation =
    operations.find((o) => o.name?.value === args.operationName) ??
    (operations.length === 1 ? operations[0] : undefined);
  if (operation?.operation === 'subscription') return true;
  return usesIncrementalDirective(args.document);
}

const directiveUse = new WeakMap<DocumentNode, boolean>();
function usesIncrementalDirective(document: DocumentNode): boolean {
  let found = directiveUse.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Directive(node) {
        if (INCREMENTAL.has(node.name.value)) found = true;
      },
    });
    directiveUse.set(document, found);
  }
  return found;
}

/** Whether Accept admits a media type that carries parts (no Accept admits anything, as in yoga). */
export function acceptsParts(accept: string | null): boolean {
  return (accept || '*/*')
    .toLowerCase()
    .split(',')
    .map((part) => part.split(';')[0]!.trim())
    .some((asked) => {
      const [type, subtype] = asked.split('/');
      return PART_MEDIA_TYPES.some((offered) => {
        const [offeredType, offeredSubtype] = offered.split('/');
        return (type === '*' || type === offeredType) && (subtype === '*' || subtype === offeredSubtype);
      });
    });
}

export const notAcceptable = (accept: string | null) =>
  codedError(
    'NOT_ACCEPTABLE',
    `A subscription, @live, @defer or @stream is answered in parts: send "Accept: text/event-stream" (SSE) or "Accept: multipart/mixed", or use the WebSocket at this URL (graphql-transport-ws). This request accepts only ${JSON.stringify(accept ?? '')}.`,
    { http: { status: 406 } },
  );

export function useStreamAccept(): Plugin {
  const refuse = (
    args: ExecutionArgs,
    stop: (result: { errors: ReturnType<typeof notAcceptable>[] }) => void,
  ) => {
    const request = (args.contextValue as { request?: Request }).request;
    // The document first: its answer is known per document, and most answer whole, so Accept
    // is read only for those that answer in parts.
    if (!request || !answersInParts(args)) return;
    const accept = request.headers.get('accept');
    if (!acceptsParts(accept)) stop({ errors: [notAcceptable(accept)] });
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      refuse(args, setResultAndStopExecution);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      refuse(args, setResultAndStopExecution);
    },
  };
}
