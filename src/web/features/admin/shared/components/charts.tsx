/**
 * The back office's charts (recharts). Import this module lazily (React.lazy), so recharts loads
 * only once a chart is about to show. Charts are hidden from screen readers: ChartFigure gives them
 * the same figures as a table.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatCompactUsd } from '#common/format';
import { formatUsd } from '#common/money';
import type { DailySales } from '#common/schemas/admin-dashboard';
import { formatDay, revenueTicks } from '../format';

/** The four rose shades the pies cycle through (DESIGN.md). */
export const ROSE_SHADES = ['#e11d48', '#fb7185', '#be123c', '#fda4af'] as const;

export function roseShade(index: number): string {
  return ROSE_SHADES[index % ROSE_SHADES.length]!;
}

const AXIS_TICK = { fill: '#78716c', fontSize: 12 };
const TOOLTIP_STYLE = { borderRadius: 12, border: '1px solid #e7e5e4', fontSize: 13, boxShadow: 'none' };

/** Axis ticks in the shop's one compact-dollar format ($x.xxK, $x.xxM). */
function compactUsd(cents: number): string {
  return formatCompactUsd(cents / 100);
}

/** Revenue per day as a line. */
export function SalesLineChart({ data, height = 260 }: { data: DailySales[]; height?: number }) {
  const rows = data.map((d) => ({ day: formatDay(d.date), revenue: d.revenueCents, orders: d.orders }));
  const showDots = rows.length <= 14;
  const ticks = revenueTicks(Math.max(0, ...rows.map((r) => r.revenue)));
  return (
    <div style={{ height }} aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart accessibilityLayer={false} data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 4 }}>
          <CartesianGrid stroke="#e7e5e4" strokeDasharray="3 4" vertical={false} />
          <XAxis
            dataKey="day"
            tickLine={false}
            axisLine={false}
            tick={AXIS_TICK}
            dy={6}
            minTickGap={16}
            interval="preserveStartEnd"
          />
          <YAxis
            tickFormatter={compactUsd}
            ticks={ticks}
            domain={[0, ticks[ticks.length - 1] ?? 0]}
            tickLine={false}
            axisLine={false}
            tick={AXIS_TICK}
            // Room for the widest label ('$12.5K') with its '$' (the axis clipped it at 56 and -8).
            width={64}
          />
          <Tooltip
            formatter={(value, name) =>
              name === 'revenue' ? [formatUsd(Number(value)), 'Revenue'] : [String(value), 'Orders']
            }
            contentStyle={TOOLTIP_STYLE}
            cursor={{ stroke: '#fda4af', strokeWidth: 1 }}
          />
          <Line
            type="monotone"
            dataKey="revenue"
            stroke={ROSE_SHADES[0]}
            strokeWidth={2.5}
            dot={showDots ? { r: 3, fill: ROSE_SHADES[0], strokeWidth: 0 } : false}
            activeDot={{ r: 5 }}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** A y-axis label on one line, right-aligned against the bars (recharts would wrap it). */
function CategoryTick(props: { x?: number | string; y?: number | string; payload?: { value?: unknown } }) {
  return (
    <text
      x={Number(props.x ?? 0)}
      y={Number(props.y ?? 0)}
      dy={4}
      textAnchor="end"
      fill={AXIS_TICK.fill}
      fontSize={AXIS_TICK.fontSize}
    >
      {typeof props.payload?.value === 'string' ? props.payload.value : ''}
    </text>
  );
}

export interface BarDatum {
  label: string;
  value: number;
  /** Shown in the tooltip beside the value. */
  detail?: string;
}

/** Horizontal bars (long category names stay readable on a phone). */
export function HorizontalBarChart({ data, valueLabel }: { data: BarDatum[]; valueLabel: string }) {
  const height = Math.max(160, data.length * 36 + 24);
  return (
    <div style={{ height }} aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          accessibilityLayer={false}
          data={data}
          layout="vertical"
          margin={{ top: 0, right: 16, bottom: 0, left: 0 }}
        >
          <CartesianGrid stroke="#e7e5e4" strokeDasharray="3 4" horizontal={false} />
          <XAxis type="number" tickLine={false} axisLine={false} tick={AXIS_TICK} allowDecimals={false} />
          <YAxis
            type="category"
            dataKey="label"
            tickLine={false}
            axisLine={false}
            tick={CategoryTick}
            width={140}
          />
          <Tooltip
            formatter={(value, _name, item) => {
              const detail = (item.payload as BarDatum | undefined)?.detail;
              return [detail ? `${String(value)} (${detail})` : String(value), valueLabel];
            }}
            contentStyle={TOOLTIP_STYLE}
            cursor={{ fill: '#fff1f2' }}
          />
          <Bar
            dataKey="value"
            fill={ROSE_SHADES[0]}
            radius={[0, 6, 6, 0]}
            barSize={18}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export interface PieDatum {
  label: string;
  value: number;
}

/** A doughnut in the rose shades, with its legend beside it (or below on a phone). */
export function DonutChart({ data, valueFormat }: { data: PieDatum[]; valueFormat?: (v: number) => string }) {
  const total = data.reduce((sum, d) => sum + d.value, 0);
  const format = valueFormat ?? ((v: number) => v.toLocaleString('en-US'));
  return (
    <div className="flex flex-col items-center gap-6 sm:flex-row">
      <div className="relative size-48 shrink-0" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <PieChart accessibilityLayer={false}>
            <Pie
              data={total === 0 ? [{ label: 'None', value: 1 }] : data}
              dataKey="value"
              nameKey="label"
              innerRadius="62%"
              outerRadius="100%"
              paddingAngle={data.filter((d) => d.value > 0).length > 1 ? 2 : 0}
              stroke="none"
              rootTabIndex={-1}
              isAnimationActive={false}
            >
              {total === 0 ? (
                <Cell fill="#e7e5e4" />
              ) : (
                data.map((d, i) => <Cell key={d.label} fill={roseShade(i)} />)
              )}
            </Pie>
            {total === 0 ? null : (
              <Tooltip formatter={(value) => format(Number(value))} contentStyle={TOOLTIP_STYLE} />
            )}
          </PieChart>
        </ResponsiveContainer>
        <div className="pointer-events-none absolute inset-0 flex flex-col items-center justify-center">
          <span className="text-xl font-semibold text-stone-950 tabular-nums">{format(total)}</span>
          <span className="text-xs text-stone-500">total</span>
        </div>
      </div>
      <ul className="w-full min-w-0 space-y-2.5" aria-hidden="true">
        {data.map((d, i) => (
          <li key={d.label} className="flex items-center gap-3 text-sm">
            <span className="size-3 shrink-0 rounded-full" style={{ background: roseShade(i) }} />
            <span className="min-w-0 flex-1 truncate text-stone-700">{d.label}</span>
            <span className="font-medium text-stone-950 tabular-nums">{format(d.value)}</span>
            <span className="w-11 text-right text-xs text-stone-500 tabular-nums">
              {total === 0 ? '0%' : `${Math.round((d.value / total) * 100)}%`}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
