// A destination's health (Destination.health) as a badge: its state in a colour of its own, why
// as the title (shown on hover). The state is the typed enum, so every state has its case.
import type { Health, HealthState } from './destination-list-query.ts';

/** The badge's words and class for each state. */
export function healthLook(state: HealthState): { label: string; className: string } {
  switch (state) {
    case 'HEALTHY':
      return { label: 'healthy', className: 'health healthy' };
    case 'DEGRADED':
      return { label: 'degraded', className: 'health degraded' };
    case 'FAILING':
      return { label: 'failing', className: 'health failing' };
    case 'DISABLED':
      return { label: 'disabled', className: 'health disabled' };
    case 'UNKNOWN':
      return { label: 'unknown', className: 'health unknown' };
  }
}

export function HealthBadge({ health }: { health: Health }) {
  const { label, className } = healthLook(health.state);
  const since = health.since ? ` (since ${health.since.slice(0, 16).replace('T', ' ')})` : '';
  return (
    <span className={className} data-state={health.state} title={`${health.reason}${since}`}>
      {label}
    </span>
  );
}
