// Prints amounts the way Kubernetes and kubectl show them. Every output parses back
// (parseQuantity) to exactly the amount given.

const DECIMAL_SUFFIX = new Map<number, string>([
  [-9, 'n'], [-6, 'u'], [-3, 'm'], [0, ''], [3, 'k'], [6, 'M'], [9, 'G'], [12, 'T'], [15, 'P'], [18, 'E'],
]);
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const MAX_INT64 = 2n ** 63n - 1n;

// Upstream's canonical DecimalSI form of unscaled * 10^exponent: no fractional digits
// and the largest exponent that is a multiple of 3 (1.5 -> "1500m", 1000 -> "1k").
// Past E it falls back to an exponent ("1e21"), as upstream does.
function decimalSI(unscaled: bigint, exponent: number): string {
  if (unscaled === 0n) return '0';
  const sign = unscaled < 0n ? '-' : '';
  let mantissa = unscaled < 0n ? -unscaled : unscaled;
  let e = exponent;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    e += 1;
  }
  while (e % 3 !== 0) {
    mantissa *= 10n;
    e -= 1;
  }
  return `${sign}${mantissa}${DECIMAL_SUFFIX.get(e) ?? `e${e}`}`;
}

// The largest power of 1024 that divides the value exactly ("1536Mi", "2Gi"), like
// upstream's BinarySI form; undefined when no binary suffix applies. Magnitudes above
// 2^63-1 are left alone because upstream parsing caps binary quantities there, so
// e.g. "8Ei" would not read back as 2^63.
function binarySI(value: bigint): string | undefined {
  let magnitude = value < 0n ? -value : value;
  if (magnitude < 1024n || magnitude > MAX_INT64) return undefined;
  let power = 0;
  while (magnitude % 1024n === 0n && power < BINARY_SUFFIX.length - 1) {
    magnitude /= 1024n;
    power += 1;
  }
  return power === 0 ? undefined : `${value < 0n ? '-' : ''}${magnitude}${BINARY_SUFFIX[power]}`;
}

// cpu amounts arrive in millicores and print as Kubernetes does: "2", "1500m", "250m".
export function formatCpu(milli: bigint): string {
  return decimalSI(milli, -3);
}

// Bytes, shown as kubectl users expect memory. Choice: the shortest of the binary form
// ("1536Mi"), the decimal SI form ("500M", what a `500M` request prints as) and the plain
// integer, preferring binary then decimal on ties. So exact powers of 1024 keep their
// Ki/Mi/Gi spelling, decimal requests keep theirs, and odd byte counts stay plain.
export function formatBytes(value: bigint): string {
  const candidates = [binarySI(value), decimalSI(value, 0), value.toString()].filter(
    (c): c is string => c !== undefined,
  );
  const shortest = Math.min(...candidates.map((c) => c.length));
  return candidates.find((c) => c.length === shortest) ?? value.toString();
}

// Pods and extended resources (nvidia.com/gpu) are counts, and a plain integer reads
// best next to other counts: "1000", where upstream would print "1k".
export function formatCount(value: bigint): string {
  return value.toString();
}

export function isByteResource(resourceName: string): boolean {
  return (
    resourceName === 'memory' ||
    resourceName === 'ephemeral-storage' ||
    resourceName.startsWith('hugepages-')
  );
}

// `amount` is in the scheduler's units for the resource: millicores for cpu, whole
// units (bytes or a count) for everything else.
export function formatResource(resourceName: string, amount: bigint): string {
  if (resourceName === 'cpu') return formatCpu(amount);
  if (isByteResource(resourceName)) return formatBytes(amount);
  return formatCount(amount);
}

/** A device amount in milli-units (a counter, a capacity) as the API writes it: "40Gi", "4", "500m". */
export function formatMilli(milli: bigint): string {
  return milli % 1000n === 0n ? formatBytes(milli / 1000n) : `${milli}m`;
}
