/**
 * Resolves in a later task of the browser's, so that what comes after the `await` runs apart
 * from what came before: long start-up work split into tasks the browser can paint and answer
 * input between (issue 14, bench/list-long-tasks.ts).
 */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));
