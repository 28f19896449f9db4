/**
 * The command lines answered before commander is built, on stderr: a bare `-v` (what it is) and
 * `parcels help WORD…` for an unknown topic (a did-you-mean and the list). A known `help WORD…`
 * becomes that command's `--help`.
 */
import { COMMANDS } from '../definitions/table.js';
import { EXIT } from '../errors.js';
import { helpFor } from '../help.js';
import { closest } from '../schemas/did-you-mean.js';
import type { IO } from '../io/streams.js';
import { writeOut } from '../io/streams.js';
import { wrapList } from '../io/wrap.js';

/** The exit code when the line was answered here, else the argv commander should parse. */
export async function earlyAnswer(argv: string[], io: () => IO): Promise<number | string[]> {
  if (argv.length === 1 && (argv[0] === '-v' || argv[0] === '--verbose')) {
    // gh and kubectl users type `-v` for the version: say what it is here, not the whole help.
    await writeOut(
      io().stderr,
      `Error: ${argv[0]} traces a command's requests to stderr (it means --verbose, not the version): it goes with a command, as in parcels ${argv[0]} get <id>\nHint: for the version, run \`parcels version\`\n`,
    );
    return EXIT.USAGE;
  }
  if (argv[0] !== 'help' || argv.length === 1) return argv;
  const request = helpFor(argv.slice(1), COMMANDS);
  if (!('unknown' in request)) return request.argv;
  const { message, topics, commands } = request.unknown;
  const groups = [...new Set(commands.map((name) => name.split(' ')[0] as string))];
  const meant = closest(argv.slice(1).join(' '), [...topics, ...groups, ...commands]);
  const hint = meant === undefined ? '' : `Hint: did you mean \`parcels help ${meant}\`?\n`;
  const out = io();
  const listed = wrapList(commands, (out.stderrIsTTY ? out.columns : 80) - 2).map((line) => `  ${line}`);
  await writeOut(out.stderr, `Error: ${message}\n${hint}Topics: ${topics.join(', ')}\nCommands:\n${listed.join('\n')}\n`);
  return EXIT.USAGE;
}
