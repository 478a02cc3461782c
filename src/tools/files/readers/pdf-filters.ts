/**
 * The PDF stream filters that are not zlib, decoded with a cap on their output (pdf-bounds.ts):
 * LZW and RunLength can expand a small stream many times; ASCIIHex and ASCII85 only shrink.
 */

/** LZWDecode (early change 1, as PDF's default), at most `max` bytes out. */
export function decodeLzw(data: Uint8Array, max: number, tooLarge: () => Error): Uint8Array {
  // The table as prefix code + last byte, so an entry costs three numbers, not a copy.
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Int32Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    length[i] = 1;
  }
  let out = new Uint8Array(Math.min(max, Math.max(1024, data.length * 4)));
  let size = 0;
  let next = 258;
  let width = 9;
  let bits = 0;
  let acc = 0;
  let prev = -1;
  const emit = (code: number): number => {
    const n = length[code]!;
    if (size + n > max) throw tooLarge();
    if (size + n > out.length) {
      const grown = new Uint8Array(Math.min(max, Math.max(out.length * 2, size + n)));
      grown.set(out.subarray(0, size));
      out = grown;
    }
    for (let c = code, at = size + n - 1; c >= 0; c = prefix[c]!, at--) out[at] = suffix[c]!;
    size += n;
    return out[size - n]!;
  };
  for (const byte of data) {
    acc = ((acc << 8) | byte) & 0xffffff;
    bits += 8;
    while (bits >= width) {
      bits -= width;
      const code = (acc >>> bits) & ((1 << width) - 1);
      if (code === 256) {
        next = 258;
        width = 9;
        prev = -1;
        continue;
      }
      if (code === 257 || code > next || (code === next && prev < 0)) return out.subarray(0, size);
      let first: number;
      if (code < next) first = emit(code);
      else {
        // The code being defined: the previous entry plus its own first byte.
        const head = emit(prev);
        if (size + 1 > max) throw tooLarge();
        if (size + 1 > out.length) {
          const grown = new Uint8Array(Math.min(max, out.length * 2));
          grown.set(out.subarray(0, size));
          out = grown;
        }
        out[size++] = head;
        first = head;
      }
      if (prev >= 0 && next < 4096) {
        prefix[next] = prev;
        suffix[next] = first;
        length[next] = length[prev]! + 1;
        next += 1;
      }
      prev = code;
      if (next + 1 >= 1 << width && width < 12) width += 1;
    }
  }
  return out.subarray(0, size);
}

/** RunLengthDecode, at most `max` bytes out. */
export function decodeRunLength(data: Uint8Array, max: number, tooLarge: () => Error): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let i = 0; i < data.length; ) {
    const n = data[i]!;
    if (n === 128) break;
    const part = n < 128 ? data.subarray(i + 1, i + 2 + n) : new Uint8Array(257 - n).fill(data[i + 1] ?? 0);
    i += n < 128 ? n + 2 : 2;
    size += part.length;
    if (size > max) throw tooLarge();
    parts.push(part);
  }
  return Buffer.concat(parts);
}

export function decodeAsciiHex(data: Uint8Array): Uint8Array {
  const hex = Buffer.from(data)
    .toString('latin1')
    .split('>')[0]!
    .replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex');
}

export function decodeAscii85(data: Uint8Array): Uint8Array {
  const text = Buffer.from(data).toString('latin1').split('~>')[0]!.replace(/\s/g, '').replace(/^<~/, '');
  const out: number[] = [];
  let group: number[] = [];
  const flush = (n: number) => {
    while (group.length < 5) group.push(84);
    let v = 0;
    for (const d of group) v = v * 85 + d;
    const bytes = [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
    for (let i = 0; i < n; i++) out.push(bytes[i]!);
    group = [];
  };
  for (const ch of text) {
    if (ch === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const d = ch.charCodeAt(0) - 33;
    if (d < 0 || d > 84) continue;
    group.push(d);
    if (group.length === 5) flush(4);
  }
  if (group.length) flush(group.length - 1);
  return Uint8Array.from(out);
}
