// The request's data API: one object per resource, made fresh for every GraphQL request (and
// every round of a long-lived one) and never shared, so what one caller's key fetched is never
// served to another. Resolvers call these methods; they never build an upstream request. Within a
// request, identical reads are made once, list answers serve by-id reads, and writes prime or
// forget what the request holds. The one thing kept beyond a request is what a key was told of
// legacy plugins, under that key's hash (plugin-templates.ts).
import type { CallerUpstream } from '../upstream/call.ts';
import type { KeyGrants } from '../upstream/keys/grants.ts';
import { Activity } from './activity/activity.ts';
import { FilteredActivity } from './activity/filtered.ts';
import { ActivityHeads } from './activity/heads.ts';
import { BatchExports } from './batch-exports/exports.ts';
import { RunBackfills } from './batch-exports/run-backfills.ts';
import { BatchExportWrites } from './batch-exports/writes.ts';
import { CurrentProject } from './current-project.ts';
import { Configs } from './destination-configs/configs.ts';
import { ConfigWrites } from './destination-configs/writes.ts';
import { Destinations } from './destinations.ts';
import { HogFunctions } from './hog-functions/functions.ts';
import { HogFunctionHistory } from './hog-functions/history.ts';
import { HogFunctionTemplates } from './hog-functions/templates.ts';
import { HogFunctionWrites } from './hog-functions/writes.ts';
import { KeyGrantLoader, KeyGrantReads } from './key-grants.ts';
import { PluginTemplates } from './plugin-templates.ts';
import { Projects } from './projects.ts';
import { UpstreamFeatures } from './upstream-features.ts';

export interface Loaders {
  currentProject: CurrentProject;
  projects: Projects;
  configs: Configs;
  configWrites: ConfigWrites;
  activity: Activity;
  activityHeads: ActivityHeads;
  filteredActivity: FilteredActivity;
  runBackfills: RunBackfills;
  hogFunctions: HogFunctions;
  hogFunctionWrites: HogFunctionWrites;
  hogFunctionTemplates: HogFunctionTemplates;
  hogFunctionHistory: HogFunctionHistory;
  batchExports: BatchExports;
  batchExportWrites: BatchExportWrites;
  destinations: Destinations;
  /** The caller's key as PostHog answers it to itself: its scopes and projects (key-grants.ts). */
  keyGrant: KeyGrantLoader;
}

/**
 * What loaders keep beyond one request: only facts under a hash of the key that read them
 * (plugin-templates.ts), made once per gateway.
 */
export interface KeptAcrossRequests {
  pluginTemplates: PluginTemplates;
  /** What the gateway learnt of the upstream itself: the same for every caller. */
  upstreamFeatures: UpstreamFeatures;
  /** What each key may do, by its hash (key-grants.ts). */
  keyGrants: KeyGrantReads;
}

export const keptAcrossRequests = (
  upstreamFeatures = new UpstreamFeatures(),
  grantStore: KeyGrants | null = null,
): KeptAcrossRequests => ({
  pluginTemplates: new PluginTemplates(),
  upstreamFeatures,
  keyGrants: new KeyGrantReads(grantStore, upstreamFeatures),
});

/**
 * Each loader is made when a resolver first asks for it: most requests read one or two resources,
 * and a subscriber of a shared live stream (live/shared-streams.ts) reads none, so the dozen
 * loaders (each with its DataLoader maps) are not paid for by every request.
 */
class RequestLoaders implements Loaders {
  #projects?: Projects;
  #currentProject?: CurrentProject;
  #configs?: Configs;
  #configWrites?: ConfigWrites;
  #activity?: Activity;
  #activityHeads?: ActivityHeads;
  #filteredActivity?: FilteredActivity;
  #runBackfills?: RunBackfills;
  #hogFunctions?: HogFunctions;
  #hogFunctionWrites?: HogFunctionWrites;
  #hogFunctionTemplates?: HogFunctionTemplates;
  #hogFunctionHistory?: HogFunctionHistory;
  #batchExports?: BatchExports;
  #batchExportWrites?: BatchExportWrites;
  #destinations?: Destinations;
  #keyGrant?: KeyGrantLoader;

  /** Writes this request has sent (any method but GET): what was read before one may be stale. */
  #writes = 0;
  private readonly upstream: CallerUpstream;

  constructor(
    upstream: CallerUpstream,
    private readonly kept: KeptAcrossRequests,
  ) {
    this.upstream = {
      request: (call) => {
        if (call.method !== 'GET') this.#writes++;
        const sent = upstream.request(call);
        if (!kept.keyGrants.store) return sent;
        // A 403 its grant does not explain: the key is read again (key-grants.ts).
        return sent.catch((error: unknown) => {
          const hash = upstream.keyHash();
          if (hash !== null) kept.keyGrants.heardForbidden(hash, call.path, error);
          throw error;
        });
      },
      keyHash: () => upstream.keyHash(),
    };
  }

  get projects() {
    this.#projects ??= new Projects(this.upstream);
    return this.#projects;
  }
  get currentProject() {
    this.#currentProject ??= new CurrentProject(this.projects);
    return this.#currentProject;
  }
  get configs() {
    this.#configs ??= new Configs(this.upstream, this.currentProject);
    return this.#configs;
  }
  get configWrites() {
    this.#configWrites ??= new ConfigWrites(this.upstream, this.configs, this.currentProject);
    return this.#configWrites;
  }
  get activity() {
    this.#activity ??= new Activity(this.upstream, () => this.#writes);
    return this.#activity;
  }
  get activityHeads() {
    this.#activityHeads ??= new ActivityHeads(this.upstream, this.kept.upstreamFeatures, this.activity);
    return this.#activityHeads;
  }
  get filteredActivity() {
    this.#filteredActivity ??= new FilteredActivity(this.upstream, this.kept.upstreamFeatures);
    return this.#filteredActivity;
  }
  get runBackfills() {
    this.#runBackfills ??= new RunBackfills(this.batchExports);
    return this.#runBackfills;
  }
  get hogFunctions() {
    this.#hogFunctions ??= new HogFunctions(this.upstream);
    return this.#hogFunctions;
  }
  get hogFunctionWrites() {
    this.#hogFunctionWrites ??= new HogFunctionWrites(this.upstream, this.hogFunctions, this.currentProject);
    return this.#hogFunctionWrites;
  }
  get hogFunctionHistory() {
    this.#hogFunctionHistory ??= new HogFunctionHistory(this.upstream, this.hogFunctions);
    return this.#hogFunctionHistory;
  }
  get hogFunctionTemplates() {
    this.#hogFunctionTemplates ??= new HogFunctionTemplates(this.upstream);
    return this.#hogFunctionTemplates;
  }
  get batchExports() {
    this.#batchExports ??= new BatchExports(this.upstream);
    return this.#batchExports;
  }
  get batchExportWrites() {
    this.#batchExportWrites ??= new BatchExportWrites(this.upstream, this.batchExports, this.currentProject);
    return this.#batchExportWrites;
  }
  get keyGrant() {
    this.#keyGrant ??= new KeyGrantLoader(this.upstream, this.kept.keyGrants);
    return this.#keyGrant;
  }
  get destinations() {
    const upstream = this.upstream;
    this.#destinations ??= new Destinations(
      this.configs,
      this.hogFunctions,
      this.batchExports,
      this.kept.pluginTemplates,
      () => upstream.keyHash(),
    );
    return this.#destinations;
  }
}

/** `kept`: none (a fresh one) where nothing is to outlive the request. */
export function createLoaders(upstream: CallerUpstream, kept = keptAcrossRequests()): Loaders {
  return new RequestLoaders(upstream, kept);
}
