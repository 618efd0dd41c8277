// A spinner on stderr while a live cluster is read, only when stderr is a terminal, so that
// pipes and CI logs stay clean and stdout carries only the report.
import ora from 'ora';
import { escapeTerminal } from '../report/escape.js';

export interface Progress {
  update: (line: string) => void;
  stop: () => void;
}

export function progressReporter(stream: NodeJS.WriteStream): Progress {
  if (!stream.isTTY) return { update: () => undefined, stop: () => undefined };
  const spinner = ora({ stream, text: 'reading the cluster' }).start();
  return {
    update: (line) => {
      spinner.text = escapeTerminal(line);
    },
    stop: () => {
      spinner.stop();
    },
  };
}
