import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

/**
 * A time series drawn by uPlot: `times` in unix seconds, one value per time (null where there is
 * none). It follows its container's width, so it fits a phone as well as a laptop.
 */
export function TimeChart(props: { label: string; times: number[]; values: (number | null)[]; format?: (value: number) => string; bars?: boolean }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (element === null) return;
    const format = props.format ?? ((value: number) => String(value));
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: 180,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { y: { range: (_self, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [{ stroke: '#667' }, { stroke: '#667', size: 64, values: (_self, ticks) => ticks.map(format) }],
        series: [
          {},
          {
            label: props.label,
            stroke: '#2563eb',
            fill: 'rgba(37, 99, 235, 0.12)',
            width: 2,
            spanGaps: false,
            // A lone timed bucket between empty ones has no line to draw: its point shows it.
            points: { show: props.bars !== true, size: 5 },
            ...(props.bars === true ? { paths: uPlot.paths.bars?.({ size: [0.7, 40] }) } : {}),
          },
        ],
      },
      [props.times, props.values],
      element,
    );
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height: 180 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [props.label, props.times, props.values, props.format, props.bars]);
  return <div class="chart" ref={holder} role="img" aria-label={`${props.label} over time`} />;
}
