// The persisted-operation manifest of PERSISTED_OPERATIONS_FILE, read once at start-up. Two
// formats are read:
// - `{"<hash>": "<document>"}`, what the Relay compiler's persistConfig and GraphQL Code
//   Generator's client preset (persistedDocuments) write;
// - Apollo's `{"format": "apollo-persisted-query-manifest", "operations": [{id, name, body}]}`.
// Every document is indexed by its manifest id and by the SHA-256 of its text (what Apollo's
// automatic persisted queries send), and every document must parse: a broken manifest stops
// start-up rather than refusing its operations one by one in production.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type DocumentNode, Kind, parse } from 'graphql';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export class PersistedManifest {
  private readonly byId = new Map<string, string>();
  private readonly texts = new Set<string>();
  /** The operation names it holds: known label values for the metrics. */
  readonly operationNames = new Set<string>();

  constructor(documents: Iterable<[id: string, document: string]>) {
    for (const [id, text] of documents) {
      let document: DocumentNode;
      try {
        document = parse(text);
      } catch (error) {
        throw new Error(`operation ${JSON.stringify(id)} does not parse: ${(error as Error).message}`);
      }
      for (const definition of document.definitions) {
        if (definition.kind === Kind.OPERATION_DEFINITION && definition.name) {
          this.operationNames.add(definition.name.value);
        }
      }
      this.byId.set(id, text);
      this.byId.set(sha256(text), text);
      this.texts.add(text);
    }
  }

  document(id: string): string | undefined {
    return this.byId.get(id);
  }

  /** Whether this exact text is one of the persisted documents (a safelisted full query). */
  holds(text: string): boolean {
    return this.texts.has(text);
  }

  static fromFile(path: string): PersistedManifest {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new Error(`cannot read ${path}: ${(error as Error).message}`);
    }
    return new PersistedManifest(entriesOf(parsed, path));
  }
}

function entriesOf(parsed: unknown, path: string): [string, string][] {
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const manifest = parsed as Record<string, unknown>;
    if (manifest.format === 'apollo-persisted-query-manifest' && Array.isArray(manifest.operations)) {
      return manifest.operations.map((operation: { id?: unknown; body?: unknown }) => {
        if (typeof operation?.id !== 'string' || typeof operation.body !== 'string') {
          throw new Error(`${path}: every operation needs a string id and body`);
        }
        return [operation.id, operation.body];
      });
    }
    const entries = Object.entries(manifest);
    if (entries.every(([, document]) => typeof document === 'string')) return entries as [string, string][];
  }
  throw new Error(`${path} is neither {"<hash>": "<document>"} nor an Apollo persisted query manifest`);
}
