/** Where a reporter writes; the CLI passes stdout. Reporters never touch `process`. */
export interface Writer {
  write(text: string): void;
  /** Terminal width when known (a TTY); reporters choose columns from it. */
  columns?: number;
  color: boolean;
}
