/** A record holding several lists (reference codes, an overview), split for people into its lists and the rest. */
import { isRecord } from '../../schemas/record.js';

interface Sections {
  /** Lists, by dotted path, the most useful first. */
  lists: [string, unknown[]][];
  /** Everything else, by dotted path. */
  rest: Record<string, unknown>;
}

export function splitSections(data: Record<string, unknown>): Sections {
  const sections = collect(data, '', { lists: [], rest: {} });
  sections.lists.sort((a, b) => usefulness(a) - usefulness(b));
  return sections;
}

function collect(data: Record<string, unknown>, prefix: string, into: Sections): Sections {
  for (const [key, value] of Object.entries(data)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (Array.isArray(value)) into.lists.push([path, value]);
    else if (isRecord(value) && Object.keys(value).length > 0) collect(value, path, into);
    else into.rest[path] = value;
  }
  return into;
}

/** Counts by status first (what an operator looks for in an overview), then the lists as sent. */
function usefulness([path]: [string, unknown[]]): number {
  return /(^|[._])by_status$/.test(path) ? 0 : 1;
}
