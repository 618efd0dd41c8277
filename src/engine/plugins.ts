// Plugin names come from the registry (src/plugins.ts), which lists every filter plugin in the
// scheduler's filter order (v1.34+, pkg/scheduler/apis/config/v1/default_plugins.go). The
// engine imports its types only: it is given the rules themselves (RuleSet, model.ts).
export type { PluginName } from '../plugins.js';

/**
 * The scheduler's status codes. `UnschedulableAndUnresolvable` tells the scheduler that
 * evicting pods from the node cannot help, so preemption skips it.
 */
export type StatusCode = 'Unschedulable' | 'UnschedulableAndUnresolvable';
