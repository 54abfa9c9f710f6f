// What a refused createHogFunction says to do. PostHog's answers name a field and little else
// (products/cdp/backend/api/hog_function.py: "No template found for id 'x'", "This field is
// required." on `inputs__<key>`, "Required." on `hog`); the gateway adds how to list templates
// and, for a missing input, its type and label from the template's (or the input's) schema.
import { GraphQLError } from 'graphql';
import type { Loaders } from '../../loaders/index.ts';

const LIST_TEMPLATES =
  'List the templates with `project(projectId: …) { hogFunctionTemplates(types: ["destination"]) { edges { node { id name inputsSchema } } } }`.';

interface CreateAttempt {
  projectId: string;
  templateId?: string | null;
  inputsSchema?: unknown;
}

interface SchemaField {
  key?: unknown;
  type?: unknown;
  label?: unknown;
}

const rethrown = (error: GraphQLError, message: string) =>
  new GraphQLError(message, { extensions: error.extensions });

/** `error` with what to do added, where the gateway knows it; any other error as it is. */
export async function explainCreateError(error: unknown, attempt: CreateAttempt, loaders: Loaders) {
  if (!(error instanceof GraphQLError) || error.extensions.code !== 'BAD_USER_INPUT') return error;
  const field = typeof error.extensions.field === 'string' ? error.extensions.field : '';
  if (field === 'template_id') return rethrown(error, `${error.message} ${LIST_TEMPLATES}`);
  if (field === 'hog' && !attempt.templateId)
    return rethrown(
      error,
      `${error.message} Give \`templateId\` (a template’s id) or \`hog\` (code). ${LIST_TEMPLATES}`,
    );
  const input = /^inputs__(.+)$/.exec(field)?.[1];
  if (input === undefined) return error;
  const described = await describeInput(input, attempt, loaders);
  return described ? rethrown(error, `${error.message} ${described}`) : error;
}

/** "Input `url` is a string (Webhook URL), from template-webhook's inputsSchema: …" */
async function describeInput(key: string, attempt: CreateAttempt, loaders: Loaders) {
  let schema = attempt.inputsSchema;
  let from = 'the given inputsSchema';
  if (!Array.isArray(schema) && attempt.templateId) {
    try {
      schema = (await loaders.hogFunctionTemplates.load(attempt.projectId, attempt.templateId)).inputsSchema;
      from = `template ${attempt.templateId}’s inputsSchema`;
    } catch {
      return null;
    }
  }
  if (!Array.isArray(schema)) return null;
  const found = (schema as SchemaField[]).find((f) => f && f.key === key);
  if (!found) return null;
  const type = typeof found.type === 'string' ? found.type : 'value';
  const label = typeof found.label === 'string' ? ` (${found.label})` : '';
  return `Input \`${key}\`${label} takes a ${type}, from ${from}: send inputs: { ${key}: { value: … } }.`;
}
