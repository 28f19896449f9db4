/**
 * A checklist for people, like `gh auth status` or `flutter doctor`: one line per check with ✓, !
 * or ✗ (in colour on a colour terminal, and distinct without it), its name and detail, and what
 * to do indented beneath each warning or failure. On a terminal long lines wrap at its width under
 * their own text; piped, each stays one line.
 */
import { styles } from './colour.js';
import type { Style } from './colour.js';
import { sanitize } from './sanitize.js';
import { writeOut } from './streams.js';
import type { IO } from './streams.js';
import { displayWidth } from './table.js';
import { wrapWords } from './wrap.js';

export type CheckState = 'ok' | 'warning' | 'failure' | 'skipped';

export interface ChecklistItem {
  name: string;
  state: CheckState;
  detail: string;
  /** What to type or do; shown beneath a warning or failure. */
  fix?: string;
}

const MARKS: Readonly<Record<CheckState, { mark: string; style: 'green' | 'yellow' | 'red' | 'dim' }>> = {
  ok: { mark: '✓', style: 'green' },
  warning: { mark: '!', style: 'yellow' },
  failure: { mark: '✗', style: 'red' },
  skipped: { mark: '-', style: 'dim' },
};

/** The checklist's text: `width` set (a terminal) wraps each line under its own start. */
export function checklistText(items: readonly ChecklistItem[], opts: { colour: boolean; width?: number }): string {
  const s = styles(opts.colour);
  const nameWidth = Math.max(0, ...items.map((item) => displayWidth(sanitize(item.name))));
  // `✓ name  ` : where the detail and the fix start.
  const indent = 2 + nameWidth + 2;
  const block = (text: string, first: string, style: Style = (t) => t): string => {
    const lines = opts.width === undefined ? [text] : wrapWords(text, Math.max(20, opts.width - indent), displayWidth);
    return lines.map((line, i) => `${i === 0 ? first : ' '.repeat(indent)}${style(line)}`.replace(/\s+$/u, '')).join('\n') + '\n';
  };
  let out = '';
  for (const item of items) {
    const { mark, style } = MARKS[item.state];
    const name = sanitize(item.name);
    const head = `${s[style](mark)} ${name}${' '.repeat(nameWidth - displayWidth(name))}  `;
    out += block(sanitize(item.detail), head, item.state === 'skipped' ? s.dim : undefined);
    if (item.fix !== undefined && (item.state === 'warning' || item.state === 'failure')) {
      out += block(`→ ${sanitize(item.fix)}`, ' '.repeat(indent));
    }
  }
  return out;
}

/** Prints a checklist on stdout. */
export async function renderChecklist(io: IO, items: readonly ChecklistItem[]): Promise<void> {
  await writeOut(io.stdout, checklistText(items, { colour: io.colour, width: io.stdoutIsTTY ? io.columns : undefined }));
}
