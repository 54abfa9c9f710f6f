// `@live` with `@defer` or `@stream` is refused before anything runs: a live query's answer is
// pushed whole each time it changes, and an incremental delivery of it has no meaning (it
// answered `{}` once, then re-ran upstream every poll and sent nothing).
import { type ASTVisitor, GraphQLError, Kind, type ValidationContext } from 'graphql';
import { isLiveQuery } from './live-queries.ts';

const INCREMENTAL = new Set(['defer', 'stream']);

export function liveNotIncrementalRule(context: ValidationContext): ASTVisitor {
  const document = context.getDocument();
  const live = document.definitions.some(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION && isLiveQuery(definition),
  );
  if (!live) return {};
  let reported = false;
  return {
    Directive(directive) {
      if (reported || !INCREMENTAL.has(directive.name.value)) return;
      reported = true;
      context.reportError(
        new GraphQLError(
          `@live cannot be combined with @${directive.name.value}: a live query's answer is sent whole each time it changes. Drop @${directive.name.value}, or run the query without @live.`,
          { nodes: directive, extensions: { code: 'BAD_USER_INPUT' } },
        ),
      );
    },
  };
}
