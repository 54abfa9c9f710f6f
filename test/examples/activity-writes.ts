// What the example tests need from a gateway: writes with the examples' key that put entries in
// the activity log, repeated until the subscriber under test has shown one (a subscription sees
// only entries made after its first poll, and nothing says from outside when that poll was).
import { configId, type Harness } from '../support/harness.ts';

/** Today's PostHog logs a hog function's change; the older upstreams a plugin config's. */
async function rename(h: Harness, n: number): Promise<void> {
  const answer =
    h.upstream.dialect === 'posthog-2026'
      ? await h.gql(
          'mutation Rename($id: ID!, $name: String!) { updateHogFunction(input: { id: $id, name: $name }) { hogFunction { name } } }',
          { id: await firstHogFunction(h), name: `renamed ${n}` },
        )
      : await h.gql(
          'mutation Rename($id: ID!, $name: String!) { updateDestinationConfig(input: { id: $id, name: $name }) { destinationConfig { name } } }',
          { id: configId('1', 7), name: `renamed ${n}` },
        );
  if (answer.body.errors) throw new Error(JSON.stringify(answer.body.errors));
}

async function firstHogFunction(h: Harness): Promise<string> {
  const answer = await h.gql(
    'query First { project(projectId: "1") { hogFunctions(first: 1) { edges { node { id } } } } }',
  );
  return answer.body.data.project.hogFunctions.edges[0].node.id;
}

/** Renames a destination of project 1 every `everyMs` until `done` settles; each rename is an activity entry. */
export async function writeUntil(h: Harness, done: Promise<unknown>, everyMs = 250): Promise<void> {
  let settled = false;
  void done.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let n = 0; !settled; n++) {
    await rename(h, n);
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, everyMs))]).catch(() => {});
  }
}
