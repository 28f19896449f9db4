// The two undici internals src/api/core/undici-entry.ts loads by path. They are not undici's
// promise, so their exports are unknown here: undici-entry.ts checks their shape before using them.
declare module 'undici/lib/dispatcher/pool.js' {
  const exported: unknown;
  export default exported;
}

declare module 'undici/lib/api/api-request.js' {
  const exported: unknown;
  export default exported;
}
