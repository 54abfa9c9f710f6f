// Every ```graphql block of README.md and docs/*.md runs as the text says: against the reference
// upstream in the dialect its marker line names, with the key it names, and answers without
// errors unless the marker says which codes (`expect=`). Each is a named operation whose variables
// are shown (`variables=`) or taken from an earlier example's answer (`take=`). Blocks run in the
// order of the files and of their lines, so a write's answer can feed the next example.
// Subscriptions, @live, @defer and @stream are read over SSE for what arrives in STREAM_MS.

import { Kind, type OperationDefinitionNode, parse } from 'graphql';
import { createClient } from 'graphql-sse';
import type { Dialect } from 'posthog-emulator';
import { afterAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import {
  type CodeBlock,
  codeBlocks,
  type ExampleMarker,
  markdownFiles,
  parseExampleMarker,
} from './markdown-blocks.ts';

const DIALECTS = ['spec', 'posthog', 'posthog-2026'];
const KEYS = [
  'phx_full',
  'phx_read',
  'phx_plugin_rw',
  'phx_legacy',
  'phx_other',
  'phx_hog_rw',
  'phx_batch_read',
  'none',
];
/** How long a streamed example is read: its first answers, then it is closed. */
const STREAM_MS = 1_500;
const harnesses = new Map<string, Promise<Harness>>();
const harnessFor = (dialect: string) => {
  let harness = harnesses.get(dialect);
  if (!harness) {
    harness = startHarness({ dialect: dialect as Dialect });
    harnesses.set(dialect, harness);
  }
  return harness;
};
afterAll(async () => {
  await Promise.all([...harnesses.values()].map(async (harness) => (await harness).close()));
});

// biome-ignore lint/suspicious/noExplicitAny: answers are read by path.
const answers = new Map<string, any>();

interface GraphQLAnswer {
  // biome-ignore lint/suspicious/noExplicitAny: answers are read by path.
  data?: any;
  errors?: { message: string; extensions?: { code?: string } }[];
  incremental?: { errors?: GraphQLAnswer['errors'] }[];
}

/** Answered as a stream: read over SSE. */
const isStreamed = (block: CodeBlock, operation: OperationDefinitionNode) =>
  operation.operation === 'subscription' || /@(live|defer|stream)\b/.test(block.code);

function operationOf(block: CodeBlock): OperationDefinitionNode {
  const document = parse(block.code);
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  expect(operations, 'one operation per example').toHaveLength(1);
  const operation = operations[0]!;
  expect(operation.name?.value, 'a named operation (e.g. query CombinedView)').toBeTruthy();
  return operation;
}

function variablesOf(marker: ExampleMarker, operation: OperationDefinitionNode): Record<string, unknown> {
  const variables = { ...marker.variables };
  for (const { variable, operation: from, path } of marker.take) {
    expect(answers.has(from), `take=${variable}<-${from}: no earlier example named ${from} answered`).toBe(
      true,
    );
    variables[variable] = path.reduce((value, step) => value?.[step], answers.get(from));
    expect(variables[variable], `take=${variable}<-${from}:${path.join('.')}`).toBeDefined();
  }
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const required = definition.type.kind === Kind.NON_NULL_TYPE && !definition.defaultValue;
    if (required)
      expect(variables, `$${name} is shown in variables= or taken with take=`).toHaveProperty(name);
  }
  return variables;
}

async function run(
  harness: Harness,
  marker: ExampleMarker,
  query: string,
  variables: Record<string, unknown>,
  streamed: boolean,
): Promise<GraphQLAnswer[]> {
  const authorization: Record<string, string> =
    marker.key === 'none' ? {} : { authorization: `Bearer ${marker.key}` };
  if (!streamed) {
    const answer = await harness.post(JSON.stringify({ query, variables }), authorization);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return [answer.body];
  }
  const client = createClient({ url: harness.url, headers: authorization, retryAttempts: 0 });
  const results: GraphQLAnswer[] = [];
  const iterator = client.iterate({ query, variables });
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), STREAM_MS));
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), timeout]);
      if (next === 'timeout' || next.done) break;
      results.push(next.value as GraphQLAnswer);
    }
  } finally {
    await iterator.return?.();
    client.dispose();
  }
  return results;
}

const codesOf = (answers: GraphQLAnswer[]) =>
  answers.flatMap((answer) =>
    [...(answer.errors ?? []), ...(answer.incremental ?? []).flatMap((part) => part.errors ?? [])].map(
      (error) => `${error.extensions?.code ?? 'no code'}: ${error.message}`,
    ),
  );

for (const file of markdownFiles()) {
  const blocks = codeBlocks(file).filter((block) => block.language === 'graphql');
  if (blocks.length === 0) continue;
  describe(file, () => {
    for (const block of blocks) {
      const title = `line ${block.line}: ${/(query|mutation|subscription)\s+\w+/.exec(block.code)?.[0] ?? block.code.split('\n')[0]}`;
      it(title, async () => {
        expect(
          block.marker,
          'a <!-- example dialect=… key=… variables={…} --> line before the block',
        ).not.toBeNull();
        const marker = parseExampleMarker(block.marker!);
        expect(DIALECTS).toContain(marker.dialect);
        expect(KEYS).toContain(marker.key);
        const operation = operationOf(block);
        const variables = variablesOf(marker, operation);
        const results = await run(
          await harnessFor(marker.dialect),
          marker,
          block.code,
          variables,
          isStreamed(block, operation),
        );
        // A subscription standing open without an error is what it should do until something happens.
        if (operation.operation !== 'subscription') expect(results.length, 'an answer').toBeGreaterThan(0);
        const codes = codesOf(results);
        if (marker.expect.length === 0) expect(codes, 'errors the text does not mention').toEqual([]);
        for (const code of marker.expect) {
          expect(
            codes.some((line) => line.startsWith(`${code}:`)),
            `an error ${code}: ${codes.join('; ')}`,
          ).toBe(true);
        }
        const unexpected = codes.filter((line) => !marker.expect.some((code) => line.startsWith(`${code}:`)));
        expect(unexpected, 'errors other than the expected ones').toEqual([]);
        answers.set(operation.name!.value, results[0]?.data);
      });
    }
  });
}
