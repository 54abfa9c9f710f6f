// Sign-in: the gateway's URL, the user's own personal API key and the project. The first query
// (`viewer`) checks the key and says what it may do; only then is the session kept. The key field
// is never stored: the browser is asked not to remember it, and the page writes it nowhere.
import { type ApolloClient, CombinedGraphQLErrors } from '@apollo/client';
import { type FormEvent, useState } from 'react';
import { DESTINATIONS, EVERY_DESTINATION, listVariables } from './destination-list-query.ts';
import { messageOf } from './errors.ts';
import { SIGN_IN, type Viewer } from './operations.ts';
import { openSession, type Session } from './session.ts';

export interface SignedIn {
  session: Session;
  viewer: Viewer;
  projectId: string;
}

/**
 * `viewer.known` false: PostHog did not say what the credential may do (an OAuth token, a gateway
 * that does not read keys; a key PostHog refuses fails `viewer` itself, UNAUTHENTICATED). The
 * list's first page, which the page shows next anyway, tells a refused credential
 * (UNAUTHENTICATED) from one PostHog takes; its answer stays in the cache for the list.
 */
async function confirmKey(client: ApolloClient, projectId: string) {
  const { error } = await client.query({
    query: DESTINATIONS,
    variables: listVariables(projectId, EVERY_DESTINATION, { after: null }),
    errorPolicy: 'all',
    fetchPolicy: 'network-only',
  });
  const refused = CombinedGraphQLErrors.is(error)
    ? error.errors.some((e) => e.extensions?.code === 'UNAUTHENTICATED')
    : error !== undefined;
  if (refused) throw error;
}

export function SignIn({ onSignedIn }: { onSignedIn: (signedIn: SignedIn) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const url = String(form.get('url')).trim();
    const key = String(form.get('key')).trim();
    const projectId = String(form.get('project')).trim() || '@current';
    setBusy(true);
    setError(null);
    const session = openSession(url, key);
    try {
      const { data, error: failed } = await session.client.query({
        query: SIGN_IN,
        fetchPolicy: 'network-only',
      });
      if (failed || !data) throw failed ?? new Error('no answer');
      if (!data.viewer.known) await confirmKey(session.client, projectId);
      onSignedIn({ session, viewer: data.viewer, projectId });
    } catch (failure) {
      session.dispose();
      setError(messageOf(failure, url));
      setBusy(false);
    }
  }

  return (
    <form className="sign-in" onSubmit={submit} autoComplete="off">
      <h2>Destinations admin</h2>
      <label>
        Gateway URL
        <br />
        <input name="url" type="url" required defaultValue="http://localhost:4000/graphql" size={40} />
      </label>
      <label>
        Your personal API key
        <br />
        <input name="key" type="password" required autoComplete="off" placeholder="phx_…" size={40} />
      </label>
      <label>
        Project
        <br />
        <input name="project" defaultValue="@current" size={40} />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Checking the key…' : 'Sign in'}
      </button>
      <p className="muted">The key stays in this tab’s memory: reloading or closing the tab signs you out.</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
