// Pre-release templates a team can neither see nor use until it has the named feature flag
// (posthog/cdp/flag_gated_templates.py@3cb6764, FLAG_GATED_TEMPLATE_IDS and
// hidden_gated_template_ids). A project's flags are `Project.featureFlags` (none unless seeded).
import type { HogFunctionTemplate, Project } from '../model.ts';
import type { Store } from '../store.ts';

/** FLAG_GATED_TEMPLATE_IDS: template id → the feature flag that shows it. */
export const FLAG_GATED_TEMPLATE_IDS: Readonly<Record<string, string>> = {
  'template-posthog-create-task': 'workflow-ai-task-action',
  'template-posthog-run-scout': 'workflow-run-scout-action',
  'template-posthog-ai-decision': 'workflow-ai-decision-action',
};

/** hidden_gated_template_ids: the gated templates this project must not see. */
export function hiddenGatedTemplateIds(project: Project | undefined): Set<string> {
  const flags = new Set(project?.featureFlags ?? []);
  return new Set(
    Object.entries(FLAG_GATED_TEMPLATE_IDS).flatMap(([id, flag]) => (flags.has(flag) ? [] : [id])),
  );
}

/**
 * The gated templates seeded: template-posthog-create-task, a hidden destination template as its
 * template file declares it (code-index id 57389706316), its code cut to its first check.
 */
export const GATED_TEMPLATES: readonly HogFunctionTemplate[] = [
  {
    id: 'template-posthog-create-task',
    name: 'Create AI task',
    description:
      'Start an AI agent task from a workflow. The agent works in the background and the task shows up in Tasks.',
    type: 'destination',
    status: 'hidden',
    category: ['Custom'],
    free: true,
    icon_url: '/static/posthog-icon.svg',
    hog: "if (empty(inputs.prompt)) {\n  throw Error('Instructions are required')\n}",
    inputs_schema: [],
  },
];

/** Project 2's team has the flag that shows template-posthog-create-task; project 1's has none. */
export function seedTeamFlags(store: Store): void {
  const staging = store.projects.get(2);
  if (staging) staging.featureFlags = ['workflow-ai-task-action'];
}
