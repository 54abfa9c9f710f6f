// What a caller is shown of what an operation costs and of its key's PostHog budget:
// - `extensions.cost` on each result (COST_EXTENSIONS): the estimated upstream calls, the calls
//   made (for a stream, each result: the calls of its round), and what is left of the budget;
// - RateLimit-Policy and RateLimit on each HTTP answer to a key (ratelimit-fields.ts);
// - a dry run (dry-run.ts), answered by the limits plugin, which hands each estimate here.
// The budget is read without spending (upstream/keys/budget-left.ts), once per answer.
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { authorizationOf } from '../core/caller-key.ts';
import type { BudgetLeft } from '../upstream/keys/budget-left.ts';
import { dryRunAnswer, type Refusal } from './dry-run.ts';
import type { OperationEstimate } from './estimate.ts';
import { rateLimitFields } from './ratelimit-fields.ts';

export interface CostReportOptions {
  /** COST_EXTENSIONS: results carry `extensions.cost`. */
  extensions: boolean;
  /** What is left of the budget of the key sent as `authorization`; null: no budget. */
  budgetLeft: (authorization: string) => Promise<BudgetLeft | null>;
  /**
   * Whether the key's first call would be its self-read (loaders/key-grants.ts): one call more
   * than the operation's estimate, counted in what the caller is shown.
   */
  grantReadPending?: (authorization: string) => boolean;
  graphqlEndpoint: string;
}

export interface CostExtension {
  /** null: not priced before it ran (a subscription's event). */
  estimatedCalls: number | null;
  calls: number;
  budget: BudgetLeft | null;
}

/** What the report reads of yoga's context. */
interface CostContext {
  request?: Request;
  authorization?: string | null;
  calls?: { calls: number };
}

const isStream = (result: unknown): result is AsyncIterable<ExecutionResult> =>
  !!result && typeof result === 'object' && Symbol.asyncIterator in result;

export class CostReport {
  private readonly estimates = new WeakMap<object, OperationEstimate | null>();
  /** The budget read for a request's answer, which its HTTP fields then show too. */
  private readonly budgets = new WeakMap<Request, Promise<BudgetLeft | null>>();

  constructor(private readonly options: CostReportOptions) {}

  /** The limits plugin's estimate of the operation run with `context`, read as it starts. */
  estimated(context: object, figures: OperationEstimate | null): void {
    this.estimates.set(context, figures && this.withGrantRead(context as CostContext, figures));
  }

  /** The dry run's answer (dry-run.ts), with what is left of the key's budget now. */
  async dryRun(context: CostContext, figures: OperationEstimate, refusal: Refusal | null) {
    return dryRunAnswer(this.estimates.get(context) ?? figures, refusal, await this.budgetOnce(context));
  }

  /** `figures` with the key's self-read counted when an operation that calls would make it first. */
  private withGrantRead(context: CostContext, figures: OperationEstimate): OperationEstimate {
    const { authorization } = context;
    const { grantReadPending } = this.options;
    if (figures.upstreamCalls === 0 || !authorization || !grantReadPending?.(authorization)) return figures;
    return { ...figures, upstreamCalls: figures.upstreamCalls + 1 };
  }

  private budgetNow(context: CostContext): Promise<BudgetLeft | null> {
    const { authorization } = context;
    return authorization ? this.options.budgetLeft(authorization) : Promise.resolve(null);
  }

  /** The budget read once for the request's answer (its body and its HTTP fields). */
  private budgetOnce(context: CostContext): Promise<BudgetLeft | null> {
    const { request } = context;
    if (!request) return this.budgetNow(context);
    let read = this.budgets.get(request);
    if (!read) {
      read = this.budgetNow(context);
      this.budgets.set(request, read);
    }
    return read;
  }

  /** `result` with `extensions.cost`; one that has it already (a shared run's) is kept. */
  private async withCost(
    result: ExecutionResult,
    context: CostContext,
    estimatedCalls: number | null,
    budget: Promise<BudgetLeft | null>,
  ): Promise<ExecutionResult | null> {
    if (result.extensions?.cost) return null;
    const cost: CostExtension = { estimatedCalls, calls: context.calls?.calls ?? 0, budget: await budget };
    return { ...result, extensions: { ...result.extensions, cost } };
  }

  plugin(): Plugin {
    const { extensions, graphqlEndpoint, budgetLeft } = this.options;
    const report = this;
    return {
      onExecute({ args }) {
        if (!extensions) return;
        const context = args.contextValue as CostContext;
        const estimatedCalls = report.estimates.get(context)?.upstreamCalls ?? null;
        return {
          async onExecuteDone({ result, setResult }) {
            if (isStream(result)) {
              // Read before the stream starts: the figures its HTTP fields show.
              await report.budgetOnce(context);
              return {
                async onNext({ result: next, setResult: setNext }) {
                  const changed = await report.withCost(
                    next,
                    context,
                    estimatedCalls,
                    report.budgetNow(context),
                  );
                  if (changed) setNext(changed);
                },
              };
            }
            const budget = report.budgetOnce(context);
            const changed = await report.withCost(result as ExecutionResult, context, estimatedCalls, budget);
            if (changed) setResult(changed);
            return undefined;
          },
        };
      },
      onSubscribe({ args }) {
        if (!extensions) return;
        const context = args.contextValue as CostContext;
        return {
          onSubscribeResult: () => ({
            async onNext({ result, setResult }) {
              const changed = await report.withCost(result, context, null, report.budgetNow(context));
              if (changed) setResult(changed);
            },
          }),
        };
      },
      async onResponse({ request, response, serverContext }) {
        if ((serverContext as { relay?: unknown }).relay) return;
        if (new URL(request.url).pathname !== graphqlEndpoint) return;
        const authorization = authorizationOf(request.headers.get('authorization'));
        if (!authorization) return;
        const budget = await (report.budgets.get(request) ?? budgetLeft(authorization));
        for (const [name, value] of rateLimitFields(budget)) response.headers.set(name, value);
      },
    };
  }
}
