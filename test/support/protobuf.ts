// A tiny protobuf writer for tests: enough to build the apiserver's answers field by field.
export type Field = [number, number | bigint | boolean | string | Buffer | Field[]];

function varint(value: bigint): Buffer {
  const out: number[] = [];
  let v = BigInt.asUintN(64, value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return Buffer.from(out);
}

/** A message from fields in order: numbers and booleans as varints (negative as int64), the rest length-delimited. */
export function message(fields: Field[]): Buffer {
  return Buffer.concat(
    fields.map(([number, value]) => {
      if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
        return Buffer.concat([varint(BigInt(number * 8)), varint(typeof value === 'boolean' ? (value ? 1n : 0n) : BigInt(value))]);
      }
      const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.isBuffer(value) ? value : message(value);
      return Buffer.concat([varint(BigInt(number * 8 + 2)), varint(BigInt(bytes.length)), bytes]);
    }),
  );
}

/** The apiserver's envelope: "k8s\0", then runtime.Unknown with the object in `raw`. */
export function envelope(kind: string, raw: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), message([[1, [[1, 'v1'], [2, kind]]], [2, raw], [4, 'application/vnd.kubernetes.protobuf']])]);
}
