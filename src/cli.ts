import type { Command as CommanderCommand, CommanderError as CommanderErrorType, Option as CommanderOption } from 'commander';
import { COMMANDS, definitions } from './definitions/table.js';
import { loadCommand } from './commands/loaders.js';
import type { CommandDefinition, FlagSpecs } from './definitions/definition.js';
import { helpDescription, longFlag } from './definitions/definition.js';
import { GLOBAL_FLAGS } from './definitions/globals.js';
import type { GlobalOptions } from './definitions/globals.js';
import type { RawFlag } from './command-kit/resolve-flags.js';
import { resolveFlags, resolveGlobalOptions } from './command-kit/resolve-flags.js';
import { requireKnownProfile } from './args/profile.js';
import { createContext } from './context.js';
import { describeError, describeUsageError, errorFormat } from './describe-error.js';
import { renderError, renderRecord } from './io/render.js';
import { systemIO, writeOut } from './io/streams.js';
import { earlyAnswer } from './command-kit/early-answers.js';
import { requestData } from './api/dry-run.js';
import { tokenize, typedFlag } from './hint/hint.js';
import { commandPath, parserErrorInfo, usageLine, wantsJsonErrors } from './command-kit/parser-errors.js';
import { commandLine } from './command-kit/command-line.js';
import type { CommandModule } from './command-kit/types.js';
import type { Context } from './context.js';
import { DryRunComplete, EXIT, ReportedFailure, UsageError } from './errors.js';
import type { IO } from './io/streams.js';
import { COMPLETE_COMMAND, fastAnswer } from './fast-path.js';
import { VERSION } from './version.js';
import { argValuesHelp, commandsFirst, topLevelHelp } from './help.js';
import { groupDescription } from './definitions/groups.js';

export { COMMANDS };

/** Dependencies a caller may replace: tests run `run()` in-process with captured streams. */
export interface RunDeps {
  io?: IO;
  env?: NodeJS.ProcessEnv;
  /** Unix seconds. */
  now?: () => number;
  /**
   * Cancels the command; its `reason` names the signal ('SIGINT' or 'SIGTERM') for the exit code.
   * Default: SIGINT/SIGTERM of this process, caught only while a command runs.
   */
  signal?: AbortSignal;
  /** A second cancellation, for commands that wait for work in flight after the first (bulk runs). */
  abandon?: AbortSignal;
}

/** Where commander keeps a flag's value: its attribute, the value its form sets, and whether another form shares it. */
interface FlagAttribute {
  name: string;
  sets: boolean;
  paired?: boolean;
}

/** The shell convention 128 + signal number. */
const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGINT: EXIT.CANCELLED, SIGTERM: EXIT.TERMINATED };

/** Entry point: parses argv, runs one command, returns the exit code. Never calls process.exit. */
export async function run(argv: string[], deps: RunDeps = {}): Promise<number> {
  const answer = argv[0] === COMPLETE_COMMAND ? (await import('./completions/answer.js')).answerCompletion(argv.slice(1), deps.env ?? process.env) : fastAnswer(argv);
  if (answer !== undefined) {
    await writeOut((deps.io ?? systemIO({ noColor: true })).stdout, answer);
    return EXIT.OK;
  }
  const early = await earlyAnswer(argv, () => deps.io ?? systemIO({ noColor: true }));
  if (typeof early === 'number') return early;
  argv = early;
  if (deps.signal !== undefined) return runCommander(argv, deps, deps.signal, () => deps.abandon ?? new AbortController().signal);
  const cancel = processSignals();
  try {
    return await runCommander(argv, deps, cancel.signal, cancel.claimSecond);
  } finally {
    cancel.dispose();
  }
}

/**
 * SIGINT/SIGTERM abort the command's signal, so requests and streams stop and the command ends
 * cleanly (exit 130/143). A second signal means the user will not wait: exit at once, unless the
 * command claimed the second signal (`claimSecond`) to abandon its work in flight and end itself.
 */
function processSignals(): { signal: AbortSignal; claimSecond(): AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const second = new AbortController();
  let secondClaimed = false;
  const onSignal = (name: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      if (!secondClaimed) process.exit(SIGNAL_EXIT[name] ?? EXIT.CANCELLED);
      second.abort(name);
      return;
    }
    controller.abort(name);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    claimSecond() {
      secondClaimed = true;
      return second.signal;
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

async function runCommander(argv: string[], deps: RunDeps, signal: AbortSignal, claimSecond: () => AbortSignal): Promise<number> {
  const { Command, CommanderError, Help, Option } = await import('commander');
  // Before commander has parsed anything, only the global flags are known.
  const globalsOnly = commandLine(argv);
  const io = deps.io ?? systemIO({ noColor: typedFlag(globalsOnly, longFlag(GLOBAL_FLAGS.color)) });
  let exitCode: number = EXIT.OK;
  let pending: Promise<void> = Promise.resolve();
  const write = (stream: NodeJS.WritableStream, text: string): void => {
    pending = pending.then(() => writeOut(stream, text));
  };

  // commander's parser errors look like every other error: `Error: …` and a hint on a terminal, one
  // JSON line with the suggestion as a field of its own with JSON output.
  const jsonErrors = wantsJsonErrors(globalsOnly, deps.env ?? process.env);
  /** commander's message for `command` (the one whose arguments or subcommand were wrong), then its usage line. */
  const parserError = (text: string, command: CommanderCommand, def?: CommandDefinition): void => {
    pending = pending.then(async () => {
      await renderError(io, parserErrorInfo(text, globalsOnly, def, jsonErrors, commandPath(command)), { format: jsonErrors ? 'json' : 'table' });
      if (!jsonErrors) await writeOut(io.stderr, `Usage: ${usageLine(command)}\n`);
    });
  };
  const outputFor = (command: CommanderCommand, def?: CommandDefinition) => ({
    writeOut: (text: string) => write(io.stdout, text),
    writeErr: (text: string) => write(io.stderr, text),
    outputError: (text: string) => parserError(text, command, def),
  });
  const program = new Command('parcels')
    .description('Track parcels with the Parcel Delivery Tracking API')
    .version(VERSION, '-V, --version')
    .exitOverride()
    .helpOption('-h, --help', 'show help for a command')
    .helpCommand('help [command]', 'show help for a command')
    .showHelpAfterError(false);
  program.configureOutput(outputFor(program));
  program.helpInformation = () => topLevelHelp(COMMANDS, Object.values(GLOBAL_FLAGS), VERSION, io.stdoutIsTTY ? io.columns : undefined);
  // Definition key → commander's attribute name (`postalCode`, `verify` for --no-verify, `color` for
  // --no-color). A switch and its `--no-` form share one attribute (`--queue`, `--no-queue`): each
  // key then reads only the value its own form sets, so conflicts and values say which was typed.
  const addFlags = (command: CommanderCommand, specs: FlagSpecs): Map<string, FlagAttribute> => {
    const attributes = new Map<string, FlagAttribute>();
    for (const [key, spec] of Object.entries(specs)) {
      const option: CommanderOption = new Option(spec.flags, helpDescription(spec));
      if (spec.type === 'list') option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
      command.addOption(option);
      attributes.set(key, { name: option.attributeName(), sets: !option.negate });
    }
    const names = [...attributes.values()].map((attribute) => attribute.name);
    for (const attribute of attributes.values()) attribute.paired = names.filter((name) => name === attribute.name).length > 1;
    return attributes;
  };
  const rawFlags = (attributes: ReadonlyMap<string, FlagAttribute>, opts: Record<string, unknown>): Record<string, RawFlag> =>
    Object.fromEntries(
      [...attributes].map(([key, { name, sets, paired }]) => {
        const value = opts[name] as RawFlag;
        return [key, paired === true && value !== sets ? undefined : value];
      }),
    );
  const globalAttributes = addFlags(program, GLOBAL_FLAGS);
  // Every subcommand's help lists the global flags it accepts (not --version, which only the top level takes).
  program.options.find((option) => option.long === '--version')?.hideHelp();
  program.configureHelp({
    showGlobalOptions: true,
    formatHelp: (command, helper) => commandsFirst(Help.prototype.formatHelp.call(helper, command, helper)),
  });

  const groups = new Map<string, CommanderCommand>();
  const parentOf = (def: CommandDefinition): CommanderCommand => {
    let parent: CommanderCommand = program;
    for (const group of def.path.slice(0, -1)) {
      let groupCommand = groups.get(group);
      if (!groupCommand) {
        groupCommand = parent.command(group).description(groupDescription(group));
        groupCommand.configureOutput(outputFor(groupCommand)).exitOverride();
        groups.set(group, groupCommand);
      }
      parent = groupCommand;
    }
    return parent;
  };

  for (const def of commandsFor(argv)) {
    const name = def.path.at(-1) as string;
    const command = parentOf(def).command(def.args ? `${name} ${def.args}` : name).description(def.summary);
    command.configureOutput(outputFor(command, def)).exitOverride();
    // A command may also head a group (`usage` and `usage daily`): defined first, its subcommands join it.
    if (def.path.length === 1 && !def.args) groups.set(name, command);
    const attributes = addFlags(command, def.flags);
    command.addHelpText('after', `${argValuesHelp(def, io.stdoutIsTTY ? io.columns : undefined)}\nExamples:\n${def.examples.map((e) => `  ${e}`).join('\n')}\n${(def.notes ?? []).map((note) => `\n${note}\n`).join('')}`);
    command.action(async (...actionArgs: unknown[]) => {
      const self = actionArgs.at(-1) as CommanderCommand;
      // A variadic last argument (`[id...]`) takes every remaining word.
      const variadic = self.registeredArguments.at(-1)?.variadic === true;
      const args = variadic ? self.args : self.args.slice(0, self.registeredArguments.length);
      let globals: GlobalOptions;
      try {
        globals = resolveGlobalOptions(rawFlags(globalAttributes, self.optsWithGlobals()));
      } catch (error) {
        // No context without valid globals: reported like commander's own parser errors.
        exitCode = await reportGlobalsError(error, io, jsonErrors);
        return;
      }
      const env = deps.env ?? process.env;
      const ctx = createContext({ io, env, globals, commandLine: commandLine(argv, Object.values(def.flags)), now: deps.now, signal, claimSecondSignal: claimSecond });
      try {
        const flags = resolveFlags(def, rawFlags(attributes, self.opts()), env);
        if (def !== definitions.authLogin) {
          await requireKnownProfile(ctx);
        }
        // A bad --jq expression fails here, before anything is sent.
        await ctx.jq();
        const module = (await loadCommand(def)).default as CommandModule<CommandDefinition, unknown>;
        const options = await module.parse({ args, flags }, ctx);
        await module.run(options, ctx);
        // --jq-exit-status: the filter's last result decides the exit code, as for `jq -e` (a dry run filters nothing).
        const jq = globals.jqExitStatus && !globals.dryRun ? await ctx.jq() : undefined;
        if (jq !== undefined) (await import('./io/jq.js')).checkLastResult(jq);
      } catch (error) {
        exitCode = signal.aborted ? signalExitCode(signal) : await reportError(error, ctx);
      } finally {
        await ctx.close();
      }
    });
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    exitCode = commanderExitCode(error);
  }
  await pending;
  return exitCode;
}

/**
 * The commands commander is given for this command line: those of the area its first word names
 * (`get`; `events` and its subcommands), so a one-shot command does not build all ~45 with their
 * flags. An unknown or missing first word gets them all, for commander's suggestions and errors.
 */
function commandsFor(argv: readonly string[]): readonly CommandDefinition[] {
  const first = tokenize(commandLine(argv)).find((token) => token.flag === undefined)?.words[0];
  const area = COMMANDS.filter((def) => def.path[0] === first);
  return area.length > 0 ? area : COMMANDS;
}

/** A refused global flag (`--output xml`): exit 2, in JSON when the command line asks for JSON. */
async function reportGlobalsError(error: unknown, io: IO, jsonErrors: boolean): Promise<number> {
  if (!(error instanceof UsageError)) throw error;
  await renderError(io, describeUsageError(error), { format: jsonErrors ? 'json' : 'table' });
  return EXIT.USAGE;
}

function signalExitCode(signal: AbortSignal): number {
  return typeof signal.reason === 'string' ? (SIGNAL_EXIT[signal.reason] ?? EXIT.CANCELLED) : EXIT.CANCELLED;
}

function commanderExitCode(error: CommanderErrorType): number {
  // Help (asked for, or shown for a bare command group) and --version are successes; anything else
  // commander throws is invalid usage, and commander has already printed its message to stderr.
  const success = ['commander.helpDisplayed', 'commander.help', 'commander.version'];
  return success.includes(error.code) ? EXIT.OK : EXIT.USAGE;
}

async function reportError(error: unknown, ctx: Context): Promise<number> {
  if (error instanceof DryRunComplete) {
    await printDryRunJson(ctx);
    return EXIT.OK;
  }
  if (error instanceof ReportedFailure) return error.exitCode;
  const described = await describeError(error, ctx);
  await renderError(ctx.io, described, { format: errorFormat(ctx) });
  return described.exitCode;
}

/** `--dry-run --json`: the recorded requests as a JSON array (ndjson: one per line); the text form was printed as they were recorded. */
async function printDryRunJson(ctx: Context): Promise<void> {
  const format = ctx.outputFormat();
  if (format !== 'json' && format !== 'ndjson') return;
  const requests = ctx.dryRunRequests().map(requestData);
  if (format === 'json') return renderRecord(ctx.io, requests, { format, now: ctx.now() });
  for (const request of requests) await renderRecord(ctx.io, request, { format, now: ctx.now() });
}
