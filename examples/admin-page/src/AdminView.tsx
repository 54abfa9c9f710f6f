// The signed-in view: what the key may do, the destination list, the selected destination's
// detail, and beside them the project's health changes and live activity feed.
import { useState } from 'react';
import { DestinationDetail } from './DestinationDetail.tsx';
import { DestinationList } from './DestinationList.tsx';
import { EVERY_DESTINATION, type ListArguments } from './destination-list-query.ts';
import { HealthPanel } from './HealthPanel.tsx';
import { LiveFeed } from './LiveFeed.tsx';
import type { SignedIn } from './SignIn.tsx';
import { ViewerSummary } from './ViewerSummary.tsx';

export function AdminView({ signedIn, onSignOut }: { signedIn: SignedIn; onSignOut: () => void }) {
  const [selected, setSelected] = useState<string | null>(null);
  const [listArguments, setListArguments] = useState<ListArguments>(EVERY_DESTINATION);
  const { viewer, projectId } = signedIn;
  return (
    <>
      <header>
        <h1>Destinations admin · project {projectId}</h1>
        <span className="muted">{new URL(signedIn.session.url).host}</span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <ViewerSummary viewer={viewer} />
      <main>
        <DestinationList
          projectId={projectId}
          listArguments={listArguments}
          onListArguments={setListArguments}
          selected={selected}
          onSelect={setSelected}
        />
        <DestinationDetail id={selected} viewer={viewer} />
        <div className="side">
          <HealthPanel projectId={projectId} viewer={viewer} />
          <LiveFeed projectId={projectId} viewer={viewer} />
        </div>
      </main>
    </>
  );
}
