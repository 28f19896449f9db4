/** The io layer's public surface. table.ts and spinner.ts are left out on purpose: they load
 * cli-table3 / ora, so they are only reached through dynamic imports. */
export type { IO } from './streams.js';
export { systemIO, shouldColour, writeOut, readAll, isClosed } from './streams.js';
export type { Styles, Style } from './colour.js';
export { styles, stripAnsi } from './colour.js';
export type { CodeNames, FormatContext } from './format.js';
export { formatCell, codeName, isTimestampField, isoSeconds, relativeTime, sanitize } from './format.js';
export { pickFields, columnsFor, getPath, cellValue } from './fields.js';
export type { OutputFormat, RecordOptions, ListOptions, ErrorInfo, MessageKind } from './render.js';
export { OUTPUT_FORMATS, renderRecord, renderList, renderError, renderMessage } from './render.js';
export type { Spinner } from './spinner.js';
