/**
 * The small palette renderers use. Built on chalk with an explicit level so that chalk's own
 * environment sniffing never decides: colour is on exactly when `IO.colour` / `IO.stderrColour`
 * says so (see `shouldColour` in streams.ts).
 */
import { Chalk } from 'chalk';

export type Style = (text: string) => string;

export interface Styles {
  bold: Style;
  dim: Style;
  red: Style;
  green: Style;
  yellow: Style;
}

const identity: Style = (text) => text;

const plain: Styles = {
  bold: identity,
  dim: identity,
  red: identity,
  green: identity,
  yellow: identity,
};

let coloured: Styles | undefined;

/** The palette: real ANSI styles when `enabled`, identity functions otherwise. */
export function styles(enabled: boolean): Styles {
  if (!enabled) return plain;
  if (coloured) return coloured;
  // Level 1 (16 colours) is all the palette uses and every colour terminal supports it.
  const c = new Chalk({ level: 1 });
  coloured = {
    bold: (t) => c.bold(t),
    dim: (t) => c.dim(t),
    red: (t) => c.red(t),
    green: (t) => c.green(t),
    yellow: (t) => c.yellow(t),
  };
  return coloured;
}
