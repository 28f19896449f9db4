/** FNV-1a over a text's UTF-16 code units, from a given offset basis: two of them make a 64-bit tag. */
export function fnv(text: string, basis = 0x811c9dc5): number {
  let hash = basis;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** The 64-bit tag of a request's identity (done.ts), as two 32-bit words. */
export function tagOf(identity: string): [number, number] {
  return [fnv(identity, 0x811c9dc5), fnv(identity, 0x050c5d1f)];
}
