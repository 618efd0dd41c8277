// Words shared by the volume rules' messages: the pod's own pin against a volume's zone, and
// who is meant to provision an unbound claim, with what the claim's events say.
import { instant } from './bound.js';
import type { EventGroup } from '../engine/story/events.js';
import type { ClaimProvisioning } from '../engine/story/claims.js';
import type { PinAgainstVolume, PodPin } from '../engine/story/pin.js';
import { list, quote } from './format.js';

function pinText(p: PodPin): string {
  const wanted = p.values.length === 1 ? `${p.key}=${p.values[0] ?? ''}` : `${p.key} in (${p.values.join(', ')})`;
  return p.source === 'nodeSelector' ? `the pod's nodeSelector pins ${wanted}` : `the pod's node affinity (term ${(p.term ?? 0) + 1}) pins ${wanted}`;
}

/** "; the pod's nodeSelector pins topology.kubernetes.io/zone=us-east-1b: no node can satisfy both" */
export function podPinClause(pin: PinAgainstVolume | undefined): string {
  if (!pin) return '';
  const pins = list(pin.pins.map(pinText));
  return pin.excludesVolume ? `; ${pins}: no node can satisfy both, the pod or the volume must change` : `; ${pins}`;
}

function eventText(g: EventGroup): string {
  return `${g.reason}${g.count > 1 ? ` (x${g.count})` : ''}: ${g.messages[0] ?? ''}`;
}

/** Warning reasons named in a message; -o json has up to four reasons. */
const warningsWorded = 2;

/** "provisioner x (the PV controller waits for it); ProvisioningFailed (x3): ..." */
/** Why an unbound claim is still unbound, in a few words for a headline: who should act, and what it said. */
export function provisioningCause(c: ClaimProvisioning): string {
  const who = c.annotatedProvisioner ?? c.provisioner;
  const warning = c.events.find((g) => g.type === 'Warning');
  const waiting = c.events.find((g) => g.reason === 'ExternalProvisioning');
  const since = (g: { time?: number } | undefined) => (g?.time !== undefined ? `, last ${instant(g.time)}` : '');
  if (!who) return 'its StorageClass names no provisioner';
  if (warning) return `provisioner ${who} fails (${warning.reason}${warning.count > 1 ? ` x${warning.count}` : ''}${since(warning)})`;
  if (waiting) return `provisioner ${who} has not acted (ExternalProvisioning${waiting.count > 1 ? ` x${waiting.count}` : ''}${since(waiting)})`;
  return `provisioner ${who} has not provisioned it`;
}

export function provisioningClause(c: ClaimProvisioning): string {
  const parts: string[] = [];
  if (c.annotatedProvisioner) {
    const differs = c.provisioner && c.provisioner !== c.annotatedProvisioner ? ` (the StorageClass names ${c.provisioner})` : '';
    parts.push(`the PV controller handed it to provisioner ${quote(c.annotatedProvisioner)}${differs}`);
  } else if (c.provisioner) {
    parts.push(`StorageClass provisioner ${quote(c.provisioner)}`);
  }
  // The provisioner's own failures first: ExternalProvisioning only repeats that the PV
  // controller waits (pv_controller.go provisionClaim), and says so for as long as it waits.
  const warnings = c.events.filter((g) => g.type === 'Warning').slice(0, warningsWorded);
  const waiting = c.events.find((g) => g.reason === 'ExternalProvisioning');
  if (warnings.length > 0) parts.push(`claim warnings, newest first: ${warnings.map(eventText).join('; ')}`);
  else if (waiting && c.events.every((g) => g.reason === 'ExternalProvisioning')) {
    parts.push(`ExternalProvisioning${waiting.count > 1 ? ` (x${waiting.count})` : ''} and nothing from the provisioner itself: is it running?`);
  } else if (c.events[0]) parts.push(`newest claim event: ${eventText(c.events[0])}`);
  else if (c.annotatedProvisioner) parts.push('no event about the claim: is the provisioner running?');
  return parts.length > 0 ? ` [${parts.join('; ')}]` : '';
}
