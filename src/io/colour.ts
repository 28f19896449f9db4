/**
 * The small palette renderers use. Built on chalk with an explicit level so that chalk's own
 * environment sniffing never decides: colour is on exactly when `IO.colour` / `IO.stderrColour`
 * says so (see `shouldColour` in streams.ts).
 */
import { Chalk } from 'chalk';

export type Style = (text: string) => string;

export interface Styles {
  enabled: boolean;
  bold: Style;
  dim: Style;
  italic: Style;
  underline: Style;
  red: Style;
  green: Style;
  yellow: Style;
  blue: Style;
  magenta: Style;
  cyan: Style;
  gray: Style;
}

const identity: Style = (text) => text;

const plain: Styles = {
  enabled: false,
  bold: identity,
  dim: identity,
  italic: identity,
  underline: identity,
  red: identity,
  green: identity,
  yellow: identity,
  blue: identity,
  magenta: identity,
  cyan: identity,
  gray: identity,
};

let coloured: Styles | undefined;

/** The palette: real ANSI styles when `enabled`, identity functions otherwise. */
export function styles(enabled: boolean): Styles {
  if (!enabled) return plain;
  if (coloured) return coloured;
  // Level 1 (16 colours) is all the palette uses and every colour terminal supports it.
  const c = new Chalk({ level: 1 });
  coloured = {
    enabled: true,
    bold: (t) => c.bold(t),
    dim: (t) => c.dim(t),
    italic: (t) => c.italic(t),
    underline: (t) => c.underline(t),
    red: (t) => c.red(t),
    green: (t) => c.green(t),
    yellow: (t) => c.yellow(t),
    blue: (t) => c.blue(t),
    magenta: (t) => c.magenta(t),
    cyan: (t) => c.cyan(t),
    gray: (t) => c.gray(t),
  };
  return coloured;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** Remove ANSI escape sequences (CSI and OSC). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}
