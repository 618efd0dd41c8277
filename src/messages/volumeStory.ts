// Words shared by the volume rules' messages: the pod's own pin against a volume's zone, and
// who is meant to provision an unbound claim, with what the claim's events say.
import type { EventGroup } from '../engine/diagnosis.js';
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

// ExternalProvisioning's text only repeats the provisioner's name (pv_controller.go
// provisionClaim): said once, shortly, so that a ProvisioningFailed beside it stands out.
function eventText(g: EventGroup, provisioner: string | undefined): string {
  const count = g.count > 1 ? ` (x${g.count})` : '';
  if (g.reason === 'ExternalProvisioning') return `ExternalProvisioning${count}: still waiting for ${provisioner ? quote(provisioner) : 'the external provisioner'}; is it running?`;
  return `${g.reason}${count}: ${g.messages[0] ?? ''}`;
}

/** Event reasons named in a message; -o json has up to four. */
const eventsWorded = 2;

/** "provisioner x (the PV controller waits for it); ProvisioningFailed (x3): ..." */
export function provisioningClause(c: ClaimProvisioning): string {
  const parts: string[] = [];
  if (c.annotatedProvisioner) {
    const differs = c.provisioner && c.provisioner !== c.annotatedProvisioner ? ` (the StorageClass names ${c.provisioner})` : '';
    parts.push(`the PV controller handed it to provisioner ${quote(c.annotatedProvisioner)}${differs}`);
  } else if (c.provisioner) {
    parts.push(`StorageClass provisioner ${quote(c.provisioner)}`);
  }
  const provisioner = c.annotatedProvisioner ?? c.provisioner;
  if (c.events.length > 0) parts.push(`claim events, newest first: ${c.events.slice(0, eventsWorded).map((g) => eventText(g, provisioner)).join('; ')}`);
  else if (c.annotatedProvisioner) parts.push('no event from it yet: is the provisioner running?');
  return parts.length > 0 ? ` [${parts.join('; ')}]` : '';
}
