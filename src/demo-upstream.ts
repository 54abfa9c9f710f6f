// The demo's upstream: the reference upstream of this repository's posthog-emulator package,
// started in process when DEMO_UPSTREAM asks for it. The package is named by a variable, so the
// gateway's build neither compiles nor ships it; an install without it (the production image)
// refuses the demo with a message instead.
import type { Config } from './config/index.ts';
import type { DemoUpstream } from './server/graphiql-page.ts';

type Dialect = Config['referenceDialect'];

/** The part of posthog-emulator's surface the demo uses (test/arrows.test.ts checks it). */
export interface Emulator {
  startReferenceUpstream(options: { dialect: Dialect; port: number }): Promise<{
    url: string;
    readonly store: { keys: ReadonlyMap<string, { value: string; scopes: string[] | null }> };
    close(): Promise<void>;
  }>;
}

const PACKAGE = 'posthog-emulator';

/** The emulator listening on `port`, with what GraphiQL's page says of it (its seeded keys). */
export async function startDemoUpstream(dialect: Dialect, port: number) {
  let emulator: Emulator;
  try {
    emulator = (await import(PACKAGE)) as Emulator;
  } catch (error) {
    throw new Error(
      `DEMO_UPSTREAM needs the ${PACKAGE} package, which a checkout installs with \`npm ci\` and a production install leaves out (${(error as Error).message})`,
    );
  }
  const upstream = await emulator.startReferenceUpstream({ dialect, port });
  const keys = [...upstream.store.keys.values()].map(({ value, scopes }) => ({ value, scopes }));
  const demo: DemoUpstream = { dialect, keys };
  return { upstream, demo };
}
