// The limits a dump or a capture is read within (README, "Reading a dump or a capture"). A
// Kubernetes object is rarely 30 levels deep and a capture a few dozen files: past these, the
// input is damaged or hostile, and it is refused in one line (exit 3) before it costs memory or
// the stack.

/** Levels of nesting of one JSON or YAML value (the API server's own decoder stops at 10,000). */
export const maxNesting = 1000;
/** Entries in a capture's .tar.gz (a capture writes one file per collection and a manifest). */
export const maxArchiveEntries = 1000;
/** Bytes of a .tar.gz once uncompressed: it is read in memory. */
export const maxArchiveBytes = 2 ** 31;
/** Folders an archive's path may go down. */
export const maxArchivePathDepth = 8;
