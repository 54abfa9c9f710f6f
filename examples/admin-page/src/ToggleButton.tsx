// Enable or pause a destination with its own kind's mutation: updateHogFunction and
// updateDestinationConfig take `enabled`; a batch export is paused or unpaused. The answer's
// object has the destination's id, so Apollo's cache updates the list row and the detail alike.
import { useMutation } from '@apollo/client/react';
import type { DocumentNode } from 'graphql';
import { messageOf } from './errors.ts';
import { mayUse, WRITE_SCOPE } from './grants.ts';
import {
  type DestinationType,
  PAUSE_BATCH_EXPORT,
  SET_DESTINATION_CONFIG_ENABLED,
  SET_HOG_FUNCTION_ENABLED,
  UNPAUSE_BATCH_EXPORT,
  type Viewer,
} from './operations.ts';

/** The mutation that sets a destination of this kind enabled (true) or paused (false). */
export function toggleMutation(kind: DestinationType, enable: boolean): DocumentNode {
  if (kind === 'HogFunction') return SET_HOG_FUNCTION_ENABLED;
  if (kind === 'DestinationConfig') return SET_DESTINATION_CONFIG_ENABLED;
  return enable ? UNPAUSE_BATCH_EXPORT : PAUSE_BATCH_EXPORT;
}

interface Props {
  destination: { __typename: DestinationType; id: string; enabled: boolean };
  viewer: Viewer;
}

export function ToggleButton({ destination, viewer }: Props) {
  const enable = !destination.enabled;
  const [toggle, { loading, error }] = useMutation(toggleMutation(destination.__typename, enable), {
    variables: { id: destination.id, enabled: enable },
    refetchQueries: ['DestinationDetail'],
  });
  const scope = WRITE_SCOPE[destination.__typename];
  if (!mayUse(viewer, scope)) return <span className="muted">(read-only: the key lacks {scope})</span>;
  return (
    <>
      <button type="button" id="toggle" disabled={loading} onClick={() => void toggle().catch(() => {})}>
        {loading ? '…' : enable ? 'Enable' : 'Pause'}
      </button>
      {error && <span className="error"> {messageOf(error)}</span>}
    </>
  );
}
