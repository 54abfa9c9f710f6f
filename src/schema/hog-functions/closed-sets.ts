// The closed sets of hog functions as typed values (schema/closed-set.ts): a function's and a
// template's type, a template's status and code language, and a log line's level, each beside its
// raw String. Types: HogFunctionType of
// products/cdp/backend/models/hog_functions/hog_function.py@962a5fb, with transformation_log and
// legacy_destination of its version at cf2dead (as posthog-emulator's HOG_FUNCTION_TYPES).
// Template status and code language: HogFunctionTemplate of nodejs/src/cdp/types.ts@4373282.
// Levels: LogEntryLevel of the same file, which posthog/api/log_entries.py@d96a655 serves
// upper-cased (`upper(level)`).
import { builder } from '../builder.ts';
import { closedSetEnum, typedValueDescription } from '../closed-set.ts';
import { HogFunctionRef, HogFunctionTemplateRef } from '../refs.ts';
import { HogFunctionLogEntryRef } from './runs.ts';

const FunctionType = closedSetEnum({
  name: 'HogFunctionType',
  description: 'What a hog function is, as PostHog’s HogFunctionType names it.',
  rawField: 'type',
  values: [
    ['destination', 'a real-time destination.'],
    ['site_destination', 'a destination that runs in the browser.'],
    ['internal_destination', 'a destination of PostHog’s own events (alerts, notifications).'],
    ['source_webhook', 'a webhook that brings events in.'],
    ['warehouse_source_webhook', 'a webhook that brings rows into the data warehouse.'],
    ['site_app', 'an app that runs on the site.'],
    ['transformation', 'a transformation of events before ingestion.'],
    ['transformation_log', 'a transformation that only logs.'],
    ['legacy_destination', 'a plugin config migrated to a hog function.'],
  ],
});

const LogLevel = closedSetEnum({
  name: 'HogFunctionLogLevel',
  description: 'The level of a hog function’s log line, as PostHog’s LogEntryLevel names it (upper-cased).',
  rawField: 'level',
  values: [
    ['DEBUG', 'detail of a run.'],
    ['INFO', 'what a run did.'],
    ['WARN', 'something a run met that needs a look.'],
    ['ERROR', 'a run failed.'],
  ],
});

const TemplateStatus = closedSetEnum({
  name: 'HogFunctionTemplateStatus',
  description: 'How far along a hog function template is, as PostHog’s templates name it.',
  rawField: 'status',
  values: [
    ['stable', 'ready for use.'],
    ['alpha', 'early; may change.'],
    ['beta', 'nearly stable.'],
    ['hidden', 'not shown in the gallery.'],
    ['coming_soon', 'announced, not yet usable.'],
    ['deprecated', 'deprecated (PostHog’s list leaves these out).'],
  ],
});

const CodeLanguage = closedSetEnum({
  name: 'HogFunctionCodeLanguage',
  description: 'The language of a template’s code, as PostHog’s templates name it.',
  rawField: 'codeLanguage',
  values: [
    ['hog', 'Hog.'],
    ['javascript', 'JavaScript (the site types).'],
  ],
});

builder.objectFields(HogFunctionRef, (t) => ({
  typeValue: t.field({
    type: FunctionType.ref,
    description: typedValueDescription('type', 'HogFunctionType'),
    resolve: (fn) => FunctionType.read(fn.type),
  }),
}));

builder.objectFields(HogFunctionLogEntryRef, (t) => ({
  levelValue: t.field({
    type: LogLevel.ref,
    description: typedValueDescription('level', 'HogFunctionLogLevel'),
    resolve: (line) => LogLevel.read(line.level),
  }),
}));

builder.objectFields(HogFunctionTemplateRef, (t) => ({
  typeValue: t.field({
    type: FunctionType.ref,
    nullable: true,
    description: typedValueDescription('type', 'HogFunctionType', true),
    resolve: (template) => FunctionType.readNullable(template.type),
  }),
  statusValue: t.field({
    type: TemplateStatus.ref,
    nullable: true,
    description: typedValueDescription('status', 'HogFunctionTemplateStatus', true),
    resolve: (template) => TemplateStatus.readNullable(template.status),
  }),
  codeLanguageValue: t.field({
    type: CodeLanguage.ref,
    nullable: true,
    description: typedValueDescription('codeLanguage', 'HogFunctionCodeLanguage', true),
    resolve: (template) => CodeLanguage.readNullable(template.codeLanguage),
  }),
}));
