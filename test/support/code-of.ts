/** The `extensions.code` of what `run` throws; null when it returns. */
export function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return (error as { extensions?: { code?: string } }).extensions?.code ?? 'not coded';
  }
}
