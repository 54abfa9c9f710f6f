// The page: the sign-in form until a key is checked, then the admin view with that key's session.
// The key lives in the session's client only (React state): signing out or closing the tab drops it.
import { ApolloProvider } from '@apollo/client/react';
import { useState } from 'react';
import { AdminView } from './AdminView.tsx';
import type { SignedIn } from './SignIn.tsx';
import { SignIn } from './SignIn.tsx';

export function App() {
  const [signedIn, setSignedIn] = useState<SignedIn | null>(null);
  if (!signedIn) return <SignIn onSignedIn={setSignedIn} />;
  const signOut = () => {
    signedIn.session.dispose();
    setSignedIn(null);
  };
  return (
    <ApolloProvider client={signedIn.session.client}>
      <AdminView signedIn={signedIn} onSignOut={signOut} />
    </ApolloProvider>
  );
}
