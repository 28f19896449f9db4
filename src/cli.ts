import type { Command as CommanderCommand, CommanderError as CommanderErrorType } from 'commander';
import { COMMANDS, GLOBAL_OPTIONS } from './commands/table.js';
import type { CommandModule } from './commands/types.js';
import type { Context, GlobalOptions } from './context.js';
import { DryRunComplete, EXIT } from './errors.js';
import type { OutputFormat } from './io/render.js';
import type { IO } from './io/streams.js';
import { fastAnswer } from './fast-path.js';
import { VERSION } from './version.js';
import { topLevelHelp } from './help.js';

export { COMMANDS };
/** The command modules that have an implementation registered (a test checks them against the table). */
export function registeredModules(): string[] {
  return Object.keys(LOADERS);
}

/** Dependencies a caller may replace: tests run `run()` in-process with captured streams. */
export interface RunDeps {
  io?: IO;
  env?: NodeJS.ProcessEnv;
  /** Unix seconds. */
  now?: () => number;
}

/** Each command's implementation, imported only when it runs (one bundle chunk per command). */
const LOADERS: Record<string, () => Promise<{ default: CommandModule<unknown> }>> = {
  'parcels/create': () => import('./commands/parcels/create.js'),
  'parcels/get': () => import('./commands/parcels/get.js'),
  'parcels/list': () => import('./commands/parcels/list.js'),
  'parcels/patch': () => import('./commands/parcels/patch.js'),
  'events/list': () => import('./commands/events/list.js'),
  'events/add': () => import('./commands/events/add.js'),
  'attempts/list': () => import('./commands/attempts/list.js'),
  'attempts/add': () => import('./commands/attempts/add.js'),
  'address/validate': () => import('./commands/address/validate.js'),
  'usage/daily': () => import('./commands/usage/daily.js'),
  'usage/requests': () => import('./commands/usage/requests.js'),
  'account/couriers': () => import('./commands/account/couriers.js'),
  'account/overview': () => import('./commands/account/overview.js'),
  'reference/show': () => import('./commands/reference/show.js'),
  'oracle/show': () => import('./commands/oracle/show.js'),
  'auth/login': () => import('./commands/auth/login.js'),
  'auth/status': () => import('./commands/auth/status.js'),
  'auth/logout': () => import('./commands/auth/logout.js'),
  'config/list': () => import('./commands/config/list.js'),
  'config/get': () => import('./commands/config/get.js'),
  'config/set': () => import('./commands/config/set.js'),
  'sandbox/serve': () => import('./commands/sandbox/serve.js'),
};

/** Entry point: parses argv, runs one command, returns the exit code. Never calls process.exit. */
export async function run(argv: string[], deps: RunDeps = {}): Promise<number> {
  const answer = fastAnswer(argv);
  if (answer !== undefined) {
    const { systemIO, writeOut } = await import('./io/streams.js');
    await writeOut((deps.io ?? systemIO({ noColor: true })).stdout, answer);
    return EXIT.OK;
  }
  return runCommander(argv, deps);
}

async function runCommander(argv: string[], deps: RunDeps): Promise<number> {
  const { Command, CommanderError, Option } = await import('commander');
  const { systemIO, writeOut } = await import('./io/streams.js');
  const noColorFlag = argv.includes('--no-color');
  const io = deps.io ?? systemIO({ noColor: noColorFlag });
  let exitCode: number = EXIT.OK;
  let pending: Promise<void> = Promise.resolve();
  const write = (stream: NodeJS.WritableStream, text: string): void => {
    pending = pending.then(() => writeOut(stream, text));
  };

  const program = new Command('parcels')
    .description('Track parcels with the Parcel Delivery Tracking API')
    .version(VERSION, '-V, --version')
    .configureOutput({
      writeOut: (text) => write(io.stdout, text),
      writeErr: (text) => write(io.stderr, text),
    })
    .exitOverride()
    .showHelpAfterError('(add --help for usage and examples)');
  program.helpInformation = () => topLevelHelp(COMMANDS, GLOBAL_OPTIONS, VERSION);
  for (const def of GLOBAL_OPTIONS) program.option(def.flags, def.description);

  const groups = new Map<string, CommanderCommand>();
  for (const def of COMMANDS) {
    let parent: CommanderCommand = program;
    for (const group of def.path.slice(0, -1)) {
      let groupCommand = groups.get(group);
      if (!groupCommand) {
        groupCommand = parent.command(group).description(`${group} commands`);
        groupCommand.configureOutput(program.configureOutput()).exitOverride().showHelpAfterError('(add --help for usage)');
        groups.set(group, groupCommand);
      }
      parent = groupCommand;
    }
    const name = def.path.at(-1) as string;
    const command = parent.command(def.args ? `${name} ${def.args}` : name).description(def.summary);
    command.configureOutput(program.configureOutput()).exitOverride().showHelpAfterError('(add --help for usage and examples)');
    for (const option of def.options ?? []) {
      if (option.repeatable) {
        command.addOption(
          new Option(option.flags, option.description).argParser((value: string, previous: string[] | undefined) => [
            ...(previous ?? []),
            value,
          ]),
        );
      } else {
        command.option(option.flags, option.description);
      }
    }
    command.addHelpText('after', `\nExamples:\n${def.examples.map((e) => `  ${e}`).join('\n')}\n`);
    command.action(async (...actionArgs: unknown[]) => {
      const self = actionArgs.at(-1) as CommanderCommand;
      const globals = toGlobalOptions(self.optsWithGlobals());
      const args = self.args.slice(0, self.registeredArguments.length);
      const { createContext } = await import('./context.js');
      const ctx = createContext({ io, env: deps.env ?? process.env, globals, now: deps.now });
      try {
        const load = LOADERS[def.module];
        if (load === undefined) throw new Error(`no implementation registered for ${def.path.join(' ')}`);
        const module = (await load()).default;
        const options = await module.parse({ args, flags: self.opts() }, ctx);
        await module.run(options, ctx);
      } catch (error) {
        exitCode = await reportError(error, ctx);
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

function toGlobalOptions(raw: Record<string, unknown>): GlobalOptions {
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  return {
    profile: str(raw.profile),
    baseUrl: str(raw.baseUrl),
    output: raw.json === true ? 'json' : str(raw.output),
    fields: str(raw.fields),
    quiet: raw.quiet === true,
    verbose: raw.verbose === true,
    dryRun: raw.dryRun === true,
    sandbox: raw.sandbox === true,
    timeout: str(raw.timeout),
    retries: str(raw.retries),
  };
}

function commanderExitCode(error: CommanderErrorType): number {
  // Help (asked for, or shown for a bare command group) and --version are successes; anything else
  // commander throws is invalid usage, and commander has already printed its message to stderr.
  const success = ['commander.helpDisplayed', 'commander.help', 'commander.version'];
  return success.includes(error.code) ? EXIT.OK : EXIT.USAGE;
}

async function reportError(error: unknown, ctx: Context): Promise<number> {
  if (error instanceof DryRunComplete) return EXIT.OK;
  const { describeError } = await import('./describe-error.js');
  const { renderError } = await import('./io/render.js');
  const described = await describeError(error, ctx);
  let format: OutputFormat;
  try {
    format = ctx.outputFormat();
  } catch {
    // The output setting itself is what is wrong: report that in the human form.
    format = 'table';
  }
  await renderError(ctx.io, described, { format });
  return described.exitCode;
}
