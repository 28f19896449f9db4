/**
 * Why a text is not JSON, without quoting it: Node's own message carries the text's first bytes
 * (`Unexpected token 'r', "root:x:0:0"... is not valid JSON`), and a file named by mistake (a
 * system file, a key file) must not be echoed into a terminal, a log or a CI transcript.
 */
export function jsonSyntaxProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/end of JSON input/i.test(message)) return 'it ends before the JSON value does';
  const position = /at position (\d+)/.exec(message)?.[1];
  return position === undefined ? 'it does not start with a JSON value' : `syntax error at character ${Number(position) + 1}`;
}
