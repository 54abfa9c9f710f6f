// The request's data API: one object per resource, made fresh for every GraphQL request (and
// every round of a long-lived one) and never shared, so what one caller's key fetched is never
// served to another. Resolvers call these methods; they never build an upstream request. Within a
// request, identical reads are made once, list answers serve by-id reads, and writes prime or
// forget what the request holds. The one thing kept beyond a request is what a key was told of
// legacy plugins, under that key's hash (plugin-templates.ts).
import type { CallerUpstream } from '../upstream/call.ts';
import { Activity } from './activity.ts';
import { ActivityHeads } from './activity-heads.ts';
import { BatchExportWrites } from './batch-export-writes.ts';
import { BatchExports } from './batch-exports.ts';
import { ConfigWrites } from './config-writes.ts';
import { Configs } from './configs.ts';
import { CurrentProject } from './current-project.ts';
import { Destinations } from './destinations.ts';
import { HogFunctionTemplates } from './hog-function-templates.ts';
import { HogFunctionWrites } from './hog-function-writes.ts';
import { HogFunctions } from './hog-functions.ts';
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
  hogFunctions: HogFunctions;
  hogFunctionWrites: HogFunctionWrites;
  hogFunctionTemplates: HogFunctionTemplates;
  batchExports: BatchExports;
  batchExportWrites: BatchExportWrites;
  destinations: Destinations;
}

/**
 * What loaders keep beyond one request: only facts under a hash of the key that read them
 * (plugin-templates.ts), made once per gateway.
 */
export interface KeptAcrossRequests {
  pluginTemplates: PluginTemplates;
  /** What the gateway learnt of the upstream itself: the same for every caller. */
  upstreamFeatures: UpstreamFeatures;
}

export const keptAcrossRequests = (upstreamFeatures = new UpstreamFeatures()): KeptAcrossRequests => ({
  pluginTemplates: new PluginTemplates(),
  upstreamFeatures,
});

/** `kept`: none (a fresh one) where nothing is to outlive the request. */
export function createLoaders(upstream: CallerUpstream, kept = keptAcrossRequests()): Loaders {
  const projects = new Projects(upstream);
  const currentProject = new CurrentProject(projects);
  const configs = new Configs(upstream, currentProject);
  const hogFunctions = new HogFunctions(upstream);
  const batchExports = new BatchExports(upstream);
  return {
    currentProject,
    projects,
    configs,
    configWrites: new ConfigWrites(upstream, configs, currentProject),
    activity: new Activity(upstream),
    activityHeads: new ActivityHeads(upstream, kept.upstreamFeatures),
    hogFunctions,
    hogFunctionWrites: new HogFunctionWrites(upstream, hogFunctions, currentProject),
    hogFunctionTemplates: new HogFunctionTemplates(upstream),
    batchExports,
    batchExportWrites: new BatchExportWrites(upstream, batchExports, currentProject),
    destinations: new Destinations(configs, hogFunctions, batchExports, kept.pluginTemplates, () =>
      upstream.keyHash(),
    ),
  };
}
