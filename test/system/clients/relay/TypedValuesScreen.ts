// Fragments a Relay app writes over the typed values not in the other screens: a backfill's
// status, a log line's level, an export's model and destination type, and a template's type,
// status and code language, each with its raw string. relay-typed-values.test.ts reads the
// unions the compiler generates for them; nothing runs this module.
const graphql = String.raw;

export const backfill = graphql`
  fragment TypedValuesScreen_backfill on BatchExportBackfill {
    status
    statusValue
  }
`;

export const logLine = graphql`
  fragment TypedValuesScreen_logLine on HogFunctionLogEntry {
    level
    levelValue
  }
`;

export const exportKind = graphql`
  fragment TypedValuesScreen_export on BatchExport {
    model
    modelValue
    destinationType
    destinationTypeValue
  }
`;

export const template = graphql`
  fragment TypedValuesScreen_template on HogFunctionTemplate {
    type
    typeValue
    status
    statusValue
    codeLanguage
    codeLanguageValue
  }
`;
