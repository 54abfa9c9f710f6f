/** The `extensions.code` of what `run` throws; null when it returns. */
export function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return (error as { extensions?: { code?: string } }).extensions?.code ?? 'not coded';
  }
}

/** What `call` ends in: 'answered', or the `extensions` of the error it fails with. */
export const outcomeOf = (call: Promise<unknown>) =>
  call.then(
    () => 'answered' as const,
    (error: { extensions?: Record<string, unknown> }) => error.extensions,
  );
