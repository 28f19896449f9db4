/** POSIX shell single-quoting: plain words stay bare, anything else is quoted so the shell reads it back verbatim. */
export function shellQuote(text: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
