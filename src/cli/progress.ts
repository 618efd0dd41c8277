// A spinner on stderr while a live cluster is read, only when stderr is a terminal, so that
// pipes and CI logs stay clean and stdout carries only the report. ora, and what it loads, are
// slow to load: loaded only when a spinner is shown, while the reading starts.
import type { Ora } from 'ora';
import { escapeTerminal } from '../report/escape.js';

export interface Progress {
  update: (line: string) => void;
  stop: () => void;
}

export function progressReporter(stream: NodeJS.WriteStream): Progress {
  if (!stream.isTTY) return { update: () => undefined, stop: () => undefined };
  let text = 'reading the cluster';
  let stopped = false;
  let spinner: Ora | undefined;
  // A spinner that cannot be loaded is no spinner: the diagnosis goes on without it.
  void import('ora').then(
    ({ default: ora }) => {
      if (!stopped) spinner = ora({ stream, text }).start();
    },
    () => undefined,
  );
  return {
    update: (line) => {
      text = escapeTerminal(line);
      if (spinner) spinner.text = text;
    },
    stop: () => {
      stopped = true;
      spinner?.stop();
    },
  };
}
