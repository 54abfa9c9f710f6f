// How a shared live query's stream asks its run for a fresh answer (shared-live-work.ts ->
// live-queries.ts): a subscriber joining a stream that has answered already gets no earlier
// answer, but the next run's, asked for at once and pushed even if it is unchanged, so what it
// sees first was fetched after it joined (a key revoked upstream meanwhile gets no data).
export class LiveRefresh {
  private rerun: (() => void) | null = null;

  /** The live query's runner: how to run it again now, pushing its answer whatever it is. */
  runWith(rerun: () => void): void {
    this.rerun = rerun;
  }

  /** Asks for a fresh run; false while no runner is there yet (its first answer is fresh anyway). */
  request(): boolean {
    if (!this.rerun) return false;
    this.rerun();
    return true;
  }
}
