// Cases are taken from upstream k8s.io/apimachinery/pkg/api/resource/quantity_test.go
// (TestQuantityParse, TestQuantityString, TestQuantityCmp, TestScaledValue) and expressed
// with upstream's decQuantity(mantissa, exponent) notation, so they can be checked against it.
import { describeQuantityProblem } from '../../src/messages/errors.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  formatBytes,
  formatCount,
  formatCpu,
  formatResource,
  fromMilli,
  fromValue,
  isZero,
  milliValue,
  parseQuantity,
  QuantityError,
  sub,
  value,
} from '../../src/engine/quantity/index.js';

// decQuantity(mantissa, exponent) from upstream, as nano-units.
const dec = (mantissa: bigint, exponent: number): bigint => mantissa * 10n ** BigInt(exponent + 9);
const MAX_INT64 = 2n ** 63n - 1n;
const nanosOf = (text: string): bigint => parseQuantity(text).nanos;

describe('parseQuantity accepts the upstream grammar', () => {
  it.each([
    { name: 'zero is zero', input: '0', nanos: 0n },
    { name: 'zero with a binary suffix is still zero', input: '0Ki', nanos: 0n },
    { name: 'zero with a decimal suffix is still zero', input: '0T', nanos: 0n },
    { name: 'a bare integer is a whole number of units', input: '1', nanos: dec(1n, 0) },
    { name: 'Ki multiplies by 1024', input: '1Ki', nanos: dec(1024n, 0) },
    { name: 'Mi multiplies by 1024^2', input: '7Mi', nanos: dec(7n * 1024n ** 2n, 0) },
    { name: 'Ei multiplies by 1024^6', input: '3Ei', nanos: dec(3n * 1024n ** 6n, 0) },
    { name: 'a fractional binary quantity is exact', input: '1.5Gi', nanos: dec(1610612736n, 0) },
    { name: 'a fractional Ki keeps its hundredths', input: '100.035Ki', nanos: dec(10243584n, -2) },
    { name: 'a fraction of a Ti keeps its tenth', input: '0.025Ti', nanos: dec(274877906944n, -1) },
    { name: 'n is a billionth', input: '5n', nanos: dec(5n, -9) },
    { name: 'u is a millionth', input: '4u', nanos: dec(4n, -6) },
    { name: 'm is a thousandth', input: '100m', nanos: dec(100n, -3) },
    { name: 'k is a thousand', input: '50k', nanos: dec(5n, 4) },
    { name: 'E alone is the exa suffix, not an exponent', input: '1E', nanos: dec(1n, 18) },
    { name: 'a lower-case e with digits is a decimal exponent', input: '1e3', nanos: dec(1n, 3) },
    { name: 'an upper-case E with a negative exponent', input: '1E-3', nanos: dec(1n, -3) },
    { name: 'an exponent may carry a plus sign', input: '1.3E+6', nanos: dec(13n, 5) },
    { name: 'a fraction may precede an exponent', input: '0.5e-2', nanos: dec(5n, -3) },
    { name: 'a fraction may precede a suffix', input: '10.035M', nanos: dec(10035n, 3) },
    { name: 'a fraction of E stays exact', input: '1.01E', nanos: dec(101n, 16) },
    { name: 'a fraction of k can be below one', input: '0.0005k', nanos: dec(5n, -1) },
    { name: 'a leading dot is allowed', input: '.5', nanos: dec(5n, -1) },
    { name: 'a trailing dot is allowed', input: '5.', nanos: dec(5n, 0) },
    { name: 'a trailing dot before a suffix is allowed', input: '1.G', nanos: dec(1n, 9) },
    { name: 'a minus sign makes the quantity negative', input: '-1', nanos: dec(-1n, 0) },
    { name: 'a plus sign is accepted', input: '+1', nanos: dec(1n, 0) },
    { name: 'a sign may precede a leading dot', input: '-.5', nanos: dec(-5n, -1) },
    { name: 'leading zeros are ignored', input: '007', nanos: dec(7n, 0) },
    { name: 'a decimal quantity beyond int64 keeps its value', input: '18446744073709551616', nanos: dec(2n ** 64n, 0) },
    { name: 'a value below a nano rounds up to one nano', input: '0.0000000001', nanos: 1n },
    { name: 'half a nano via an exponent rounds up to one nano', input: '0.5e-9', nanos: 1n },
    { name: 'a fraction of a nano rounds up to the next nano', input: '3.001n', nanos: 4n },
    { name: 'rounding to nano looks at every dropped digit', input: '0.00000012345', nanos: 124n },
    { name: 'negative values round away from zero', input: '-3.001n', nanos: -4n },
    { name: 'a tiny binary quantity rounds up to whole nanos', input: '0.000000000001Ki', nanos: 2n },
    { name: 'a huge negative exponent still rounds up to one nano', input: '1e-2147483648', nanos: 1n },
    { name: 'a binary quantity past int64 is capped at 2^63-1', input: '9Ei', nanos: dec(MAX_INT64, 0) },
    { name: 'a binary Ki past int64 is capped too', input: '9223372036854775807Ki', nanos: dec(MAX_INT64, 0) },
    { name: 'the binary cap applies to the magnitude of negatives', input: '-9Ei', nanos: dec(-MAX_INT64, 0) },
    { name: 'a decimal quantity past int64 is not capped', input: '12E', nanos: dec(12n, 18) },
  ])('$name ($input)', ({ input, nanos }) => {
    expect(nanosOf(input)).toBe(nanos);
  });
});

describe('parseQuantity rejects what the grammar rejects', () => {
  it.each([
    { name: 'an empty string', input: '', why: /empty/ },
    { name: 'two decimal points', input: '1.5.0', why: /more than one decimal point/ },
    { name: 'two decimal points before a suffix', input: '1.1.M', why: /more than one decimal point/ },
    { name: 'a binary suffix written backwards', input: '1iK', why: /unknown suffix "iK"/ },
    { name: 'an exponent marker without digits', input: '1e', why: /exponent "e" has no digits/ },
    { name: 'an exponent with only a sign', input: '-3.01e-', why: /exponent "e-" has no digits/ },
    { name: 'a hexadecimal number', input: '0x10', why: /unknown suffix "x10"/ },
    { name: 'trailing whitespace', input: '1 ', why: /whitespace/ },
    { name: 'leading whitespace', input: ' 1', why: /whitespace/ },
    { name: 'whitespace before the suffix', input: '1 Gi', why: /whitespace/ },
    { name: 'a suffix with no number', input: 'Ki', why: /expected a number/ },
    { name: 'a sign with no number', input: '-', why: /expected a number/ },
    { name: 'a lone plus sign', input: '+', why: /expected a number/ },
    { name: 'a lone decimal point', input: '.', why: /expected a number/ },
    { name: 'two signs', input: '--1', why: /expected a number/ },
    { name: 'a sign in the middle', input: '1+1.0M', why: /unknown suffix/ },
    { name: 'a binary milli, which does not exist', input: '0.1mi', why: /unknown suffix "mi"/ },
    { name: 'an unknown prefix letter', input: '0.1am', why: /unknown suffix "am"/ },
    { name: 'letters only', input: 'aoeu', why: /expected a number/ },
    { name: 'a bare i', input: '1i', why: /unknown suffix "i"/ },
    { name: 'upper-case K for kilo', input: '1K', why: /unknown suffix "K"/ },
    { name: 'lower-case ki for kibi', input: '1ki', why: /unknown suffix "ki"/ },
    { name: 'a fractional exponent', input: '1e1.5', why: /unknown suffix "e1.5"/ },
    { name: 'two exponents', input: '1e3e3', why: /unknown suffix/ },
    { name: 'a suffix followed by an exponent', input: '1Ee3', why: /unknown suffix/ },
    { name: 'an exponent past the 32-bit range', input: '1e2147483648', why: /32-bit range/ },
    { name: 'non-ASCII digits', input: '\u0661', why: /expected a number/ },
    { name: 'a newline, reported on one line', input: '1\n', why: /whitespace/ },
  ])('$name ($input)', ({ input, why }) => {
    let caught: unknown;
    try {
      parseQuantity(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(QuantityError);
    const error = caught as QuantityError;
    expect(error.input).toBe(input);
    const words = describeQuantityProblem(input, error.problem);
    expect(words.startsWith(`quantity ${JSON.stringify(input)} is not valid: `)).toBe(true);
    expect(words).not.toContain('\n');
    expect(words).toMatch(why);
  });

  it('refuses exponents too large to expand instead of hanging', () => {
    expect(() => parseQuantity('1e2147483647')).toThrow(expect.objectContaining({ problem: { kind: 'tooLarge' } }));
  });
});

describe('value and milliValue round up like upstream Value and MilliValue', () => {
  it.each([
    { name: 'a tenth of a milli rounds up to one milli', input: '0.1m', milli: 1n, units: 1n },
    { name: 'one nano is one milli and one unit', input: '1n', milli: 1n, units: 1n },
    { name: 'an exact milli stays exact', input: '100m', milli: 100n, units: 1n },
    { name: 'a fraction of a milli rounds up', input: '1999999n', milli: 2n, units: 1n },
    { name: 'one and a half rounds up to two units', input: '1.5', milli: 1500n, units: 2n },
    { name: 'whole units are exact', input: '2', milli: 2000n, units: 2n },
    { name: 'a binary amount is exact in both', input: '1Ki', milli: 1024000n, units: 1024n },
    { name: 'negative fractions round away from zero', input: '-1.5', milli: -1500n, units: -2n },
    { name: 'zero stays zero', input: '0m', milli: 0n, units: 0n },
  ])('$name ($input)', ({ input, milli, units }) => {
    const q = parseQuantity(input);
    expect(milliValue(q)).toBe(milli);
    expect(value(q)).toBe(units);
  });

  it('fromMilli and fromValue build the same quantities as parsing', () => {
    expect(compare(fromMilli(1500n), parseQuantity('1.5'))).toBe(0);
    expect(compare(fromValue(1024n), parseQuantity('1Ki'))).toBe(0);
    expect(milliValue(fromMilli(-7n))).toBe(-7n);
    expect(value(fromValue(3n))).toBe(3n);
  });
});

describe('arithmetic and comparison', () => {
  it.each([
    { name: 'zero equals zero', x: '0', y: '0', cmp: 0 },
    { name: 'more millis compare greater', x: '100m', y: '50m', cmp: 1 },
    { name: 'fewer millis compare less', x: '50m', y: '100m', cmp: -1 },
    { name: 'decimal tera outweighs binary gibi', x: '10000T', y: '100Gi', cmp: 1 },
    { name: 'different spellings of one value are equal', x: '1024Mi', y: '1Gi', cmp: 0 },
    { name: 'an exponent and a suffix can be equal', x: '1e3', y: '1k', cmp: 0 },
  ])('$name ($x vs $y)', ({ x, y, cmp }) => {
    expect(compare(parseQuantity(x), parseQuantity(y))).toBe(cmp);
  });

  it('adds and subtracts across suffixes exactly', () => {
    expect(compare(add(parseQuantity('10'), parseQuantity('1e1')), parseQuantity('20'))).toBe(0);
    expect(compare(add(parseQuantity('1Gi'), parseQuantity('512Mi')), parseQuantity('1.5Gi'))).toBe(0);
    expect(compare(sub(parseQuantity('10'), parseQuantity('1')), parseQuantity('9'))).toBe(0);
    expect(compare(sub(parseQuantity('0'), parseQuantity('50')), parseQuantity('-50'))).toBe(0);
  });

  it('isZero is true only for zero', () => {
    expect(isZero(parseQuantity('0Gi'))).toBe(true);
    expect(isZero(sub(parseQuantity('1Ki'), parseQuantity('1024')))).toBe(true);
    expect(isZero(parseQuantity('1n'))).toBe(false);
    expect(isZero(parseQuantity('-1n'))).toBe(false);
  });

  it('summing 0.1 ten times gives exactly 1', () => {
    let total = fromValue(0n);
    for (let i = 0; i < 10; i++) total = add(total, parseQuantity('0.1'));
    expect(compare(total, parseQuantity('1'))).toBe(0);
    expect(value(total)).toBe(1n);
  });
});

describe('formatting', () => {
  it.each([
    { name: 'whole cores print without a suffix', milli: 2000n, text: '2' },
    { name: 'fractional cores print in millis', milli: 1500n, text: '1500m' },
    { name: 'a quarter core prints as 250m', milli: 250n, text: '250m' },
    { name: 'zero cpu prints as 0', milli: 0n, text: '0' },
    { name: 'a thousand cores print as 1k, as upstream', milli: 1000000n, text: '1k' },
    { name: 'negative cpu keeps its sign', milli: -500n, text: '-500m' },
    { name: 'upstream 1080m stays 1080m', milli: 1080n, text: '1080m' },
  ])('cpu: $name', ({ milli, text }) => {
    expect(formatCpu(milli)).toBe(text);
  });

  it.each([
    { name: 'an exact Mi multiple uses Mi', bytes: 1536n * 1024n ** 2n, text: '1536Mi' },
    { name: 'an exact Gi uses Gi', bytes: 2n * 1024n ** 3n, text: '2Gi' },
    { name: 'a node capacity in Ki stays in Ki', bytes: 16283836n * 1024n, text: '16283836Ki' },
    { name: 'one Ki uses Ki', bytes: 1024n, text: '1Ki' },
    { name: 'an odd byte count stays plain', bytes: 1025n, text: '1025' },
    { name: 'a small byte count stays plain', bytes: 512n, text: '512' },
    { name: 'a decimal gigabyte uses G', bytes: 10n ** 9n, text: '1G' },
    { name: 'a decimal request keeps its decimal spelling', bytes: 500n * 10n ** 6n, text: '500M' },
    { name: 'on a length tie binary beats decimal (not 10112k)', bytes: 10112000n, text: '9875Ki' },
    { name: 'zero bytes print as 0', bytes: 0n, text: '0' },
    { name: 'negative binary amounts keep their sign', bytes: -(2n * 1024n ** 3n), text: '-2Gi' },
    { name: '2^63 avoids the capped Ei spelling', bytes: 2n ** 63n, text: '9223372036854775808' },
  ])('bytes: $name', ({ bytes, text }) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('counts print as plain integers', () => {
    expect(formatCount(110n)).toBe('110');
    expect(formatCount(1000n)).toBe('1000');
  });

  it.each([
    { name: 'cpu is read as millicores', resource: 'cpu', amount: 1500n, text: '1500m' },
    { name: 'memory is read as bytes', resource: 'memory', amount: 2n * 1024n ** 3n, text: '2Gi' },
    { name: 'ephemeral-storage is read as bytes', resource: 'ephemeral-storage', amount: 10n * 1024n ** 3n, text: '10Gi' },
    { name: 'hugepages are read as bytes', resource: 'hugepages-2Mi', amount: 2n * 1024n ** 2n, text: '2Mi' },
    { name: 'an extended resource is a count', resource: 'nvidia.com/gpu', amount: 1024n, text: '1024' },
    { name: 'pods are a count', resource: 'pods', amount: 110n, text: '110' },
  ])('formatResource: $name', ({ resource, amount, text }) => {
    expect(formatResource(resource, amount)).toBe(text);
  });
});

// ---- properties -------------------------------------------------------------------------

const bigSign = (n: bigint): number => (n > 0n ? 1 : n < 0n ? -1 : 0);
const scaled = (base: bigint) =>
  fc.tuple(fc.bigInt({ min: -5000n, max: 5000n }), fc.integer({ min: 0, max: 8 })).map(([k, p]) => k * base ** BigInt(p));
const anyAmount = fc.oneof(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), scaled(1024n), scaled(1000n), scaled(10n));

// Independent reference: the exact rational value num/den, built digit-group by digit-group
// with powers of 1024 and 10 rather than the parser's shifts and combined exponent.
const SUFFIX_SCALE: Record<string, { ten?: number; kibi?: number }> = {
  n: { ten: -9 }, u: { ten: -6 }, m: { ten: -3 }, '': {}, k: { ten: 3 }, M: { ten: 6 }, G: { ten: 9 },
  T: { ten: 12 }, P: { ten: 15 }, E: { ten: 18 },
  Ki: { kibi: 1 }, Mi: { kibi: 2 }, Gi: { kibi: 3 }, Ti: { kibi: 4 }, Pi: { kibi: 5 }, Ei: { kibi: 6 },
};
function exactRational(sign: string, whole: string, fraction: string, suffix: string): [bigint, bigint, boolean] {
  let num = BigInt(whole === '' ? '0' : whole) * 10n ** BigInt(fraction.length) + BigInt(fraction === '' ? '0' : fraction);
  let den = 10n ** BigInt(fraction.length);
  const known = SUFFIX_SCALE[suffix];
  const ten = known ? (known.ten ?? 0) : Number(suffix.slice(1));
  if (ten >= 0) num *= 10n ** BigInt(ten);
  else den *= 10n ** BigInt(-ten);
  if (known?.kibi) num *= 1024n ** BigInt(known.kibi);
  return [sign === '-' ? -num : num, den, known?.kibi !== undefined];
}
function roundAway(num: bigint, den: bigint): bigint {
  const magnitude = num < 0n ? -num : num;
  const up = (magnitude + den - 1n) / den;
  return num < 0n ? -up : up;
}
const capBinary = (n: bigint, limit: bigint): bigint => (n > limit ? limit : n < -limit ? -limit : n);

const digitString = (max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { maxLength: max }).map((d) => d.join(''));
const quantityParts = fc
  .record({
    sign: fc.constantFrom('', '+', '-'),
    whole: digitString(22),
    dot: fc.boolean(),
    fraction: digitString(14),
    suffix: fc.oneof(
      fc.constantFrom(...Object.keys(SUFFIX_SCALE)),
      fc
        .tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 40 }))
        .map(([e, s, n]) => `${e}${s}${n}`),
    ),
  })
  .map((p) => ({ ...p, fraction: p.dot ? p.fraction : '' }))
  .filter((p) => p.whole !== '' || p.fraction !== '');

describe('properties', () => {
  it('random decimal strings with suffixes equal an exact BigInt reference', () => {
    fc.assert(
      fc.property(quantityParts, ({ sign, whole, dot, fraction, suffix }) => {
        const text = `${sign}${whole}${dot ? '.' : ''}${fraction}${suffix}`;
        const [num, den, binary] = exactRational(sign, whole, fraction, suffix);
        const q = parseQuantity(text);
        const nanos = roundAway(num * 10n ** 9n, den);
        const cap = MAX_INT64 * 10n ** 9n;
        expect(q.nanos).toBe(binary ? capBinary(nanos, cap) : nanos);
        expect(value(q)).toBe(binary ? capBinary(roundAway(num, den), MAX_INT64) : roundAway(num, den));
        expect(milliValue(q)).toBe(binary ? capBinary(roundAway(num * 1000n, den), MAX_INT64 * 1000n) : roundAway(num * 1000n, den));
      }),
      { numRuns: 2000 },
    );
  });

  it('a string parses exactly when it matches the documented grammar', () => {
    const grammar = /^[+-]?(\d+|\d+\.\d*|\.\d+)(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?\d+)?$/;
    const alphabet = fc.constantFrom(...'015.+-eEkKiMmn x');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 5 }).map((c) => c.join('')), (text) => {
        let parsed = true;
        try {
          parseQuantity(text);
        } catch (error) {
          if (!(error instanceof QuantityError)) throw error;
          parsed = false;
        }
        expect(parsed).toBe(grammar.test(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('formatCpu output parses back to the same millicores', () => {
    fc.assert(
      fc.property(anyAmount, (milli) => {
        expect(milliValue(parseQuantity(formatCpu(milli)))).toBe(milli);
      }),
    );
  });

  it('formatBytes output parses back to the same byte count', () => {
    fc.assert(
      fc.property(anyAmount, (bytes) => {
        expect(value(parseQuantity(formatBytes(bytes)))).toBe(bytes);
      }),
    );
  });

  it('formatResource output parses back for every kind of resource', () => {
    const resource = fc.constantFrom('cpu', 'memory', 'ephemeral-storage', 'hugepages-1Gi', 'pods', 'nvidia.com/gpu');
    fc.assert(
      fc.property(resource, anyAmount, (name, amount) => {
        const q = parseQuantity(formatResource(name, amount));
        expect(name === 'cpu' ? milliValue(q) : value(q)).toBe(amount);
      }),
    );
  });

  it('comparing quantities matches comparing the bigints they were written from', () => {
    const n = fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n });
    fc.assert(
      fc.property(n, n, (a, b) => {
        expect(compare(parseQuantity(`${a}`), parseQuantity(`${b}`))).toBe(bigSign(a - b));
        expect(compare(parseQuantity(`${a}m`), parseQuantity(`${b}m`))).toBe(bigSign(a - b));
        expect(compare(parseQuantity(`${a}n`), fromMilli(b))).toBe(bigSign(a - b * 1_000_000n));
        expect(compare(fromValue(a), fromValue(b))).toBe(bigSign(a - b));
      }),
    );
  });

  it('comparison across binary and decimal spellings is exact', () => {
    const n = fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n });
    fc.assert(
      fc.property(n, n, (a, b) => {
        expect(compare(parseQuantity(`${a}Ki`), parseQuantity(`${b}`))).toBe(bigSign(a * 1024n - b));
      }),
    );
  });

  it('adding and subtracting parsed decimals is exact, with no float drift', () => {
    const toDecimal = (nanos: bigint): string => {
      const magnitude = nanos < 0n ? -nanos : nanos;
      const frac = (magnitude % 10n ** 9n).toString().padStart(9, '0');
      return `${nanos < 0n ? '-' : ''}${magnitude / 10n ** 9n}.${frac}`;
    };
    const amounts = fc.array(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), { maxLength: 30 });
    fc.assert(
      fc.property(amounts, (list) => {
        const total = list.reduce((acc, n) => add(acc, parseQuantity(toDecimal(n))), fromValue(0n));
        expect(total.nanos).toBe(list.reduce((acc, n) => acc + n, 0n));
        const back = list.reduce((acc, n) => sub(acc, parseQuantity(toDecimal(n))), total);
        expect(isZero(back)).toBe(true);
      }),
    );
  });

  it('milliValue of "<n>m" is n for any integer n', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 100n), max: 2n ** 100n }), (n) => {
        expect(milliValue(parseQuantity(`${n}m`))).toBe(n);
      }),
    );
  });
});
