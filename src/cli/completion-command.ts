// The two completion entry points main.ts routes to before the diagnosis is loaded:
//   __complete <words...>       cobra's protocol (completion.ts), for kubectl_complete-why_pending
//   completion bash|zsh|fish    a script for the shell (completion-scripts.ts)
// Completion runs at every <TAB>: it prints nothing on stderr and exits 0 whatever happens.
import { complete, formatCompletion, directives, shells } from './completion.js';
import { completionScripts } from './completion-scripts.js';
import { launchHooks } from './hooks.js';
import { buildCaptureProgram, buildProgram } from './options.js';
import { toolVersion } from '../version.js';

function isShell(word: string | undefined): word is (typeof shells)[number] {
  return (shells as readonly string[]).includes(word ?? '');
}

export async function runCompletion(command: '__complete' | 'completion', args: string[]): Promise<void> {
  if (command === 'completion') {
    const shell = args[0];
    if (isShell(shell)) process.stdout.write(completionScripts[shell]);
    return;
  }
  let text: string;
  try {
    const { liveLookups } = await import('./completion-live.js');
    // `capture` has flags of its own (-f, --redact-names): its words are completed against them.
    text = formatCompletion(args[0] === 'capture' && args.length > 1 ? await complete(buildCaptureProgram(toolVersion), args.slice(1), liveLookups) : await complete(buildProgram(toolVersion), args, liveLookups));
  } catch {
    text = formatCompletion({ candidates: [], directive: directives.noFileComp });
  }
  launchHooks.covered(['complete']);
  // Exit once written: a kept-alive connection or an exec plugin must not hold the prompt.
  process.stdout.write(text, () => process.exit(0));
}
