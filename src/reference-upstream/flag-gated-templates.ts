// Pre-release templates a team can neither see nor use until it has the named feature flag
// (posthog/cdp/flag_gated_templates.py@3cb6764, FLAG_GATED_TEMPLATE_IDS and
// hidden_gated_template_ids). A project's flags are `Project.featureFlags` (none unless seeded).
import type { Project } from './model.ts';

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
