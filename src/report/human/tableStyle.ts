// kubectl's look: no borders, columns separated by spaces, upper-case headers.
import type { TableConstructorOptions } from 'cli-table3';

const noBorders = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '',
  right: '', 'right-mid': '', middle: '  ',
};

export function kubectlStyle(head: string[]): TableConstructorOptions {
  return { head, chars: noBorders, style: { head: [], border: [], 'padding-left': 0, 'padding-right': 1 }, wordWrap: false };
}

/** cli-table3 pads every line to the table width; kubectl does not. */
export function trimLines(table: string): string {
  return table
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
