// How long the first line may be: a person reads it at 3 a.m. in a terminal, and tools cut it.
export const headlineLimit = 240;
