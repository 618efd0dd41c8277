// The admission plugins' refusals, read back from a FailedCreate event's text (v1.37 formats;
// the words are the plugins', so this is parsing of data, not of prose that changes per release):
//   ResourceQuota (plugin/pkg/admission/resourcequota/controller.go checkRequest):
//     "exceeded quota: <name>, requested: <r>=<q>,..., used: <r>=<q>,..., limited: <r>=<q>,..."
//     (prettyPrint: resource names sorted, joined by commas; only the exceeded resources)
//   LimitRanger (plugin/pkg/admission/limitranger/admission.go):
//     "maximum <res> usage per <Type> is <q>, but limit is <q>"      (maxConstraint)
//     "maximum <res> usage per <Type> is <q>, but request is <q>"
//     "minimum <res> usage per <Type> is <q>, but request is <q>"    (minConstraint)
//     "minimum <res> usage per <Type> is <q>, but limit is <q>"
//     "<res> max limit to request ratio per <Type> is <q>, but provided ratio is <float>"
//   Older releases end each with a period; several errors come as "[a, b]".

export interface QuotaRefusal {
  quota: string;
  requested: Record<string, string>;
  used: Record<string, string>;
  limited: Record<string, string>;
}

export interface LimitRangeRefusal {
  /** The LimitRange item type the bound belongs to: `Container` or `Pod`. */
  scope: string;
  resource: string;
  bound: 'max' | 'min' | 'maxLimitRequestRatio';
  /** Which value of the pod broke it. */
  field: 'limit' | 'request' | 'ratio';
  /** The bound as the LimitRange writes it. */
  allowed: string;
  /** The pod's value: a quantity, or the ratio as the plugin printed it. */
  actual: string;
}

const quotaPattern = /exceeded quota: ([^,\s]+), requested: ([^\s]+), used: ([^\s]+), limited: ([^\s\]]+)/;
const boundPattern = /\b(maximum|minimum) ([^\s]+) usage per (\w+) is ([^\s,]+), but (limit|request) is ([^\s,\]]+)/g;
const ratioPattern = /\b([^\s[]+) max limit to request ratio per (\w+) is ([^\s,]+), but provided ratio is ([0-9.]+)/g;

function resourceList(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.replace(/\.$/, '').split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

const withoutPeriod = (text: string) => text.replace(/\.$/, '');

export function parseQuotaRefusal(message: string): QuotaRefusal | undefined {
  const m = quotaPattern.exec(message);
  if (!m?.[1] || !m[2] || !m[3] || !m[4]) return undefined;
  return { quota: m[1], requested: resourceList(m[2]), used: resourceList(m[3]), limited: resourceList(m[4]) };
}

export function parseLimitRangeRefusals(message: string): LimitRangeRefusal[] {
  const out: LimitRangeRefusal[] = [];
  for (const m of message.matchAll(boundPattern)) {
    const [, word, resource, scope, allowed, field, actual] = m;
    if (!word || !resource || !scope || !allowed || !actual) continue;
    out.push({ scope, resource, bound: word === 'maximum' ? 'max' : 'min', field: field === 'limit' ? 'limit' : 'request', allowed: withoutPeriod(allowed), actual: withoutPeriod(actual) });
  }
  for (const m of message.matchAll(ratioPattern)) {
    const [, resource, scope, allowed, actual] = m;
    if (!resource || !scope || !allowed || !actual) continue;
    out.push({ scope, resource, bound: 'maxLimitRequestRatio', field: 'ratio', allowed: withoutPeriod(allowed), actual: withoutPeriod(actual) });
  }
  return out;
}
