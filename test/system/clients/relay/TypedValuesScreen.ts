// Fragments a Relay app writes over the typed values not in the other screens: a backfill's
// status and a log line's level, each with its raw string. relay-typed-values.test.ts reads the
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
