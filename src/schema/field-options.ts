// Options of a nullable field whose value is read from its record by a function: a DateTime (the
// upstream's timestamp as it sent it) or a JSON value passed through. One shape for every type.

export const dateTimeField = <T>(description: string, read: (record: T) => string | null) => ({
  type: 'DateTime' as const,
  nullable: true as const,
  description,
  resolve: read,
});

export const jsonField = <T>(description: string, read: (record: T) => unknown) => ({
  type: 'JSON' as const,
  nullable: true as const,
  description,
  resolve: read,
});
