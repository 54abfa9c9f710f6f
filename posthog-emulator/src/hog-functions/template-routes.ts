// /api/projects/:project_id/hog_function_templates/ as PostHog serves it in late 2026
// (products/cdp/backend/api/hog_function_template.py@16e598a, PublicHogFunctionTemplateViewSet):
// scope hog_function:read; the list filters by `type` (one) or `types` (a comma list), default
// ["destination"], and `template_id`; it never lists deprecated templates, nor the flag-gated
// ones a team lacks the flag for (the anonymous catalog: any flag-gated or hidden one); the whole
// list is ordered by use (enabled functions of any project made from it), then lower-cased name,
// then id, before DRF's limit/offset paging (100) (code-index id 69064927251,
// _template_ids_by_popularity). A retrieve finds any template, deprecated, hidden and gated too.
import { notFound } from '../http/api-error.ts';
import { FLAG_GATED_TEMPLATE_IDS, hiddenGatedTemplateIds } from './flag-gated-templates.ts';
import { HOG_TEMPLATES } from './seed.ts';
import type { HogFunctionTemplate } from '../model.ts';
import { limitOffsetPage } from '../http/pagination.ts';
import { ok, type Reply, type RouteContext } from '../http/reply.ts';
import type { Store } from '../store.ts';

/** The template as HogFunctionTemplateSerializer answers it, listed or nested in a function. */
export function serializeTemplate(t: HogFunctionTemplate): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    code: t.hog,
    code_language: t.type.startsWith('site_') || t.id.startsWith('plugin-') ? 'javascript' : 'hog',
    inputs_schema: t.inputs_schema,
    type: t.type,
    status: t.status,
    category: t.category,
    free: t.free,
    icon_url: t.icon_url,
    filters: null,
    masking: null,
    mapping_templates: null,
  };
}

/** How many enabled, live functions of any project were made from each template. */
function usage(store: Store): Map<string, number> {
  const counts = new Map<string, number>();
  for (const fn of store.hogFunctions.values()) {
    if (!fn.enabled || fn.deleted || fn.templateId === null) continue;
    counts.set(fn.templateId, (counts.get(fn.templateId) ?? 0) + 1);
  }
  return counts;
}

// PublicHogFunctionTemplateViewSet.filter_queryset and list.
export function listHogFunctionTemplates({ store, url, project }: RouteContext): Reply {
  const q = url.query;
  const types = q.get('type') ? [q.get('type')!] : (q.get('types')?.split(',') ?? ['destination']);
  const templateId = q.get('template_id');
  // The anonymous catalog leaves hidden templates out (hog_function_template.py@b1d33f0).
  const isPublic = url.path.startsWith('/api/public_hog_function_templates');
  const gated = isPublic ? new Set(Object.keys(FLAG_GATED_TEMPLATE_IDS)) : hiddenGatedTemplateIds(project);
  const listed = HOG_TEMPLATES.filter(
    (t) =>
      t.status !== 'deprecated' &&
      !(isPublic && t.status === 'hidden') &&
      !gated.has(t.id) &&
      types.includes(t.type) &&
      (templateId === null || t.id === templateId),
  );
  const used = usage(store);
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const ordered = [...listed].sort(
    (a, b) =>
      (used.get(b.id) ?? 0) - (used.get(a.id) ?? 0) ||
      byCodePoint(a.name.toLowerCase(), b.name.toLowerCase()) ||
      byCodePoint(a.id, b.id),
  );
  const page = limitOffsetPage(ordered, url);
  return ok({ ...page, results: page.results.map(serializeTemplate) });
}

// PublicHogFunctionTemplateViewSet.retrieve (lookup_field template_id): DRF's 404 when none.
export function retrieveHogFunctionTemplate({ params }: RouteContext): Reply {
  const found = HOG_TEMPLATES.find((t) => t.id === params.id);
  if (!found) throw notFound();
  return ok(serializeTemplate(found));
}
