import { SHELLS, completionScript } from '../completions/scripts.js';
import type { Shell } from '../completions/scripts.js';
import { UsageError } from '../errors.js';
import { writeOut } from '../io/streams.js';
import type { completionCommands } from '../definitions/completion.js';
import { defineCommand } from '../command-kit/types.js';

export default defineCommand<typeof completionCommands.completion, { shell: Shell }>({
  parse({ args }) {
    const shell = args[0] ?? '';
    if (!(SHELLS as readonly string[]).includes(shell)) {
      throw new UsageError(`the shell must be one of ${SHELLS.join(', ')} (got "${shell}")`, '<shell>', 'e.g. parcels completion bash');
    }
    return { shell: shell as Shell };
  },
  async run({ shell }, ctx) {
    // The script verbatim: it is code for the shell, not data to format.
    await writeOut(ctx.io.stdout, completionScript(shell));
  },
});
