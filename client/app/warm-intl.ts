/**
 * The first Intl object of each kind in a page loads its ICU data: about 15 ms at full speed and
 * 60 ms at 4x CPU throttling for the first `Intl.DateTimeFormat` alone (measured with the V8
 * profiler in bench/list-long-tasks.ts' setting). Paid inside the app chunk's module evaluation
 * (date-display-store reads the browser's time zone at load) and the first render, it made those
 * the page's longest tasks (issue 14, goal 5). Paid here instead, one kind per task while the app
 * chunks download, each is a short task of its own and the later ones find the data loaded.
 */
export function warmIntl(locale: string, schedule: (step: () => void) => void = defer): void {
  const steps = [
    () => Intl.DateTimeFormat(locale).resolvedOptions(),
    () => new Intl.NumberFormat(locale).format(1234.5),
    () => new Intl.PluralRules(locale).select(1),
  ];
  const next = (i: number) => {
    const step = steps[i];
    if (!step) return;
    schedule(() => {
      try {
        step();
      } catch {
        // Only a warm-up: a locale tag the engine refuses must not stop the page or the rest.
      }
      next(i + 1);
    });
  };
  next(0);
}

// A macrotask each, so that the browser may paint and answer input between them.
const defer = (step: () => void) => void setTimeout(step, 0);
