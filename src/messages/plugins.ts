// What each filter plugin checks, in words, for explaining a scheduler message when the nodes
// themselves could not be read: from each plugin's descriptor (src/messages/rules/<Plugin>.ts).
import type { PluginName } from '../engine/names.js';
import { pluginNamed } from './registry.js';

export function pluginPurpose(plugin: PluginName): string {
  return pluginNamed(plugin).purpose;
}
