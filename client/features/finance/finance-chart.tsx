import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  /** Cents per month, in the order of `months`. */
  values: readonly number[];
  color: string;
}

const HEIGHT = 300;

/**
 * The finance report's lines per month, drawn by uPlot (about 20 KB gzipped, canvas, fast with
 * many points), which only the report's routes load. The canvas is hidden from assistive
 * technology: the table under it holds the same figures, readable and sortable.
 */
export function FinanceChart({
  months,
  series,
  monthLabel,
  amountLabel,
}: {
  months: readonly string[];
  series: readonly ChartSeries[];
  monthLabel: (month: string) => string;
  amountLabel: (cents: number) => string;
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 320),
      height: HEIGHT,
      scales: { x: { time: false } },
      legend: { live: false },
      axes: [
        {
          // Only whole indexes are months; uPlot may place ticks between them.
          values: (_plot, splits) =>
            splits.map((i) => (Number.isInteger(i) && months[i] ? monthLabel(months[i]) : '')),
        },
        { size: 96, values: (_plot, splits) => splits.map((v) => amountLabel(v * 100)) },
      ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          points: { show: true, size: 5 },
        })),
      ],
    };
    const data: uPlot.AlignedData = [
      months.map((_, i) => i),
      ...series.map((s) => s.values.map((cents) => cents / 100)),
    ];
    const plot = new uPlot(options, data, element);
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(element.clientWidth, 320), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [months, series, monthLabel, amountLabel]);
  return <div ref={host} aria-hidden="true" className="w-full" data-testid="finance-chart" />;
}
