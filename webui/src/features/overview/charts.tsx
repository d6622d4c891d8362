/**
 * The overview's charts, hand-written SVG (no chart library): a line (area) over time and
 * horizontal bars (the MRR waterfall, the funnel, leads by source). Drawn at the width they
 * get (ResizeObserver), so text stays at its real size on a phone. Each chart sits in a
 * ChartFrame: a keyboard stop whose arrow keys read each value aloud, a "Show as table" toggle
 * (the table is always there for screen readers) and "Download CSV".
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode, type RefObject } from 'react'
import { Button } from '../../components/ui/Button'
import { DownloadIcon } from '../../components/icons/DownloadIcon'
import { cx } from '../../lib/cx'
import { downloadCsv, toCsv, type CsvCell } from './overview'

/** The element's content width, kept up to date; `fallback` until measured (and in tests). */
export function useWidth(ref: RefObject<HTMLElement | null>, fallback = 640): number {
  const [width, setWidth] = useState(fallback)
  useEffect(() => {
    const element = ref.current
    if (!element || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver((entries) => {
      const next = Math.floor(entries[0]?.contentRect.width ?? 0)
      if (next > 0) setWidth(next)
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref])
  return width
}

// ---- Tables and CSV ----------------------------------------------------------------------------

export interface Column {
  label: string
  numeric?: boolean
}

export interface TableData {
  columns: readonly Column[]
  /** Cells as shown. */
  rows: readonly (readonly ReactNode[])[]
  /** The same rows for the CSV file (numbers as numbers, money in units). */
  csv: readonly (readonly CsvCell[])[]
  /** The CSV file's name. */
  file: string
  /** The CSV's header when its columns differ from the table's. */
  csvColumns?: readonly string[]
}

export function DataTable({
  caption,
  data,
  captionHidden = false,
  scroll = true,
}: {
  caption: string
  data: TableData
  captionHidden?: boolean
  /** In a scrolling box (a table on screen); a visually hidden table is not (nothing to scroll with the keyboard). */
  scroll?: boolean
}) {
  const table = (
    <table className="data-table ov-table">
        <caption className={captionHidden ? 'visually-hidden' : 'ov-table__caption'}>{caption}</caption>
        <thead>
          <tr>
            {data.columns.map((column) => (
              <th key={column.label} scope="col" className={cx(column.numeric && 'data-table__num')}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) =>
                c === 0 ? (
                  <th key={c} scope="row" data-label={data.columns[c].label} className="ov-table__rowhead">
                    {cell}
                  </th>
                ) : (
                  <td key={c} data-label={data.columns[c].label} className={cx(data.columns[c].numeric && 'data-table__num')}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
  )
  return scroll ? <div className="table-wrap">{table}</div> : table
}

export function CsvButton({ data, what }: { data: TableData; what: string }) {
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => downloadCsv(data.file, toCsv(data.csvColumns ?? data.columns.map((c) => c.label), data.csv))}
      aria-label={`Download CSV: ${what}`}
    >
      <DownloadIcon size={16} />
      Download CSV
    </Button>
  )
}

/** A titled table with its CSV download (the overview's tables without a chart). */
export function TableCard({ id, title, note, data, empty }: { id: string; title: string; note?: ReactNode; data: TableData; empty?: string }) {
  return (
    <section className="card dash-card ov-panel" aria-labelledby={id}>
      <div className="ov-panel__head">
        <h3 id={id} className="ov-panel__title">
          {title}
        </h3>
        {data.rows.length > 0 && <CsvButton data={data} what={title} />}
      </div>
      {note && <p className="ov-panel__note">{note}</p>}
      {data.rows.length === 0 ? <p className="ov-panel__empty">{empty ?? 'Nothing in this period.'}</p> : <DataTable caption={title} data={data} captionHidden />}
    </section>
  )
}

// ---- The frame every chart sits in ---------------------------------------------------------------

export interface Reading {
  label: string
  value: string
}

export interface ChartFrameProps {
  id: string
  title: string
  /** A sentence under the title (what is drawn). */
  note?: ReactNode
  /** What the chart shows in one sentence, for the SVG's name. */
  summary: string
  /** One reading per point or bar: what the arrow keys read. */
  readings: readonly Reading[]
  table: TableData
  /** Extra line under the chart (a legend). */
  legend?: ReactNode
  children: (props: { width: number; active: number | null; setActive: (index: number | null) => void }) => ReactNode
}

export function ChartFrame({ id, title, note, summary, readings, table, legend, children }: ChartFrameProps) {
  const box = useRef<HTMLDivElement>(null)
  const width = useWidth(box)
  const [active, setActive] = useState<number | null>(null)
  const [showTable, setShowTable] = useState(false)
  const tableId = useId()
  const hintId = useId()
  const last = readings.length - 1

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (last < 0) return
    const moves: Record<string, (i: number) => number> = {
      ArrowRight: (i) => Math.min(last, i + 1),
      ArrowDown: (i) => Math.min(last, i + 1),
      ArrowLeft: (i) => Math.max(0, i - 1),
      ArrowUp: (i) => Math.max(0, i - 1),
      Home: () => 0,
      End: () => last,
    }
    const move = moves[event.key]
    if (!move) return
    event.preventDefault()
    setActive((current) => (current === null ? (event.key === 'End' ? last : 0) : move(current)))
  }

  const reading = active !== null ? readings[active] : undefined
  return (
    <section className="card dash-card ov-panel" aria-labelledby={id}>
      <div className="ov-panel__head">
        <h3 id={id} className="ov-panel__title">
          {title}
        </h3>
        <div className="ov-panel__actions">
          <Button variant="ghost" size="sm" aria-expanded={showTable} aria-controls={tableId} onClick={() => setShowTable((v) => !v)}>
            {showTable ? 'Hide table' : 'Show as table'}
          </Button>
          <CsvButton data={table} what={title} />
        </div>
      </div>
      {note && <p className="ov-panel__note">{note}</p>}
      {/* A keyboard stop: the arrow keys step through the values, read out below (the table holds them too). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- a chart one reads with the arrow keys */}
      <div
        ref={box}
        className="ov-chart"
        role="group"
        aria-label={`${title}, chart`}
        aria-describedby={hintId}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the chart is a keyboard stop (arrow keys)
        tabIndex={0}
        onKeyDown={onKeyDown}
        onBlur={() => setActive(null)}
      >
        <span id={hintId} className="visually-hidden">
          Use the arrow keys to read each value.
        </span>
        <div role="img" aria-label={summary} className="ov-chart__img">
          {children({ width, active, setActive })}
        </div>
      </div>
      <p className="ov-chart__readout" aria-live="polite">
        {reading ? (
          <>
            <span className="ov-chart__readout-label">{reading.label}:</span> {reading.value}
          </>
        ) : (
          <span className="ov-chart__readout-hint">Point at the chart or focus it and use the arrow keys to read the values.</span>
        )}
      </p>
      {legend}
      <div id={tableId} className={showTable ? 'ov-chart__table' : 'visually-hidden'}>
        <DataTable caption={`${title}: the data`} data={table} scroll={showTable} />
      </div>
    </section>
  )
}

// ---- Scales ------------------------------------------------------------------------------------

/** A round upper bound at or above `value` (1, 2, 2.5, 5, 10 steps) and its tick step for about `ticks` ticks. */
export function niceScale(value: number, ticks = 4): { max: number; step: number } {
  if (value <= 0) return { max: 1, step: 1 / ticks }
  const raw = value / ticks
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = ([1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power)
  return { max: Math.ceil(value / step) * step, step }
}

const CHAR = 7.2 // average width of a 13 px system-ui character, for laying out labels

// ---- Line (area) chart -------------------------------------------------------------------------

export interface LinePoint {
  label: string
  /** The axis label under the point (first, middle and last are shown). */
  tick: string
  value: number
}

export function LineChart({
  points,
  width,
  active,
  setActive,
  format,
  height = 220,
  floor = 1,
}: {
  points: readonly LinePoint[]
  width: number
  active: number | null
  setActive: (index: number | null) => void
  format: (value: number) => string
  height?: number
  /** The least top of the scale (all zeros still get a readable axis). */
  floor?: number
}) {
  const { max, step } = niceScale(Math.max(floor, ...points.map((p) => p.value)))
  const ticks: number[] = []
  for (let v = 0; v <= max + step / 2; v += step) ticks.push(v)
  const left = Math.max(...ticks.map((t) => format(t).length)) * CHAR + 12
  const right = 16
  const top = 12
  const bottom = 30
  const plotW = Math.max(10, width - left - right)
  const plotH = height - top - bottom
  const n = points.length
  const x = (i: number) => left + (n <= 1 ? plotW / 2 : (i / (n - 1)) * plotW)
  const y = (v: number) => top + plotH - (v / max) * plotH
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ')
  const area = n > 0 ? `${line} L${x(n - 1).toFixed(1)},${y(0)} L${x(0).toFixed(1)},${y(0)} Z` : ''
  const labelled = n === 0 ? [] : [...new Set([0, Math.floor((n - 1) / 2), n - 1])]

  const onPointer = (event: PointerEvent<SVGSVGElement>) => {
    if (n === 0) return
    const rect = event.currentTarget.getBoundingClientRect()
    const px = event.clientX - rect.left
    const i = n <= 1 ? 0 : Math.round(((px - left) / plotW) * (n - 1))
    setActive(Math.min(n - 1, Math.max(0, i)))
  }

  return (
    <svg
      className="ov-svg"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      aria-hidden="true"
      focusable="false"
      onPointerMove={onPointer}
      onPointerLeave={() => setActive(null)}
    >
      {ticks.map((t) => (
        <g key={t}>
          <line className="ov-svg__grid" x1={left} x2={left + plotW} y1={y(t)} y2={y(t)} />
          <text className="ov-svg__axis" x={left - 8} y={y(t)} dy="0.32em" textAnchor="end">
            {format(t)}
          </text>
        </g>
      ))}
      {area && <path className="ov-svg__area" d={area} />}
      {n > 0 && <path className="ov-svg__line" d={line} />}
      {labelled.map((i) => (
        <text
          key={i}
          className="ov-svg__axis"
          x={x(i)}
          y={height - 8}
          textAnchor={labelled.length > 1 && i === 0 ? 'start' : labelled.length > 1 && i === n - 1 ? 'end' : 'middle'}
        >
          {points[i].tick}
        </text>
      ))}
      {active !== null && points[active] && (
        <g>
          <line className="ov-svg__cursor" x1={x(active)} x2={x(active)} y1={top} y2={top + plotH} />
          <circle className="ov-svg__dot" cx={x(active)} cy={y(points[active].value)} r={5} />
        </g>
      )}
    </svg>
  )
}

// ---- Horizontal bars (waterfall, funnel, sources) ------------------------------------------------

export type BarTone = 'total' | 'up' | 'down' | 'plain'

export interface Bar {
  label: string
  /** The bar runs from `from` to `to` (a waterfall step floats; other bars start at 0). */
  from: number
  to: number
  /** The same figure in the previous period: a thin bar under this one. */
  previous?: number
  tone: BarTone
  /** The figure as written beside the bar ("+€299", "120"). */
  text: string
}

const ROW = 48
/** A row whose label and figure do not fit on one line writes the figure on a line of its own. */
const ROW_TWO_LINES = 66

function fitsOneLine(bar: Bar, width: number): boolean {
  return (bar.label.length + bar.text.length) * CHAR + 24 <= width
}

export function BarChart({
  bars,
  width,
  active,
  setActive,
  connect = false,
}: {
  bars: readonly Bar[]
  width: number
  active: number | null
  setActive: (index: number | null) => void
  /** Dashed lines from each bar's end to the next bar (a waterfall). */
  connect?: boolean
}) {
  const max = Math.max(1, ...bars.flatMap((b) => [b.from, b.to, b.previous ?? 0]))
  const pad = 2
  const plotW = Math.max(10, width - pad * 2)
  const x = (v: number) => pad + (Math.max(0, v) / max) * plotW
  const hasPrevious = bars.some((b) => b.previous !== undefined)
  const oneLine = bars.map((bar) => fitsOneLine(bar, width))
  const tops: number[] = []
  let height = 0
  for (const fits of oneLine) {
    tops.push(height)
    height += fits ? ROW : ROW_TWO_LINES
  }
  height += 4
  return (
    <svg className="ov-svg" width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true" focusable="false" onPointerLeave={() => setActive(null)}>
      {bars.map((bar, i) => {
        const top = tops[i]
        const rowHeight = oneLine[i] ? ROW : ROW_TWO_LINES
        const lo = Math.min(bar.from, bar.to)
        const hi = Math.max(bar.from, bar.to)
        const barY = top + rowHeight - 26
        const barH = hasPrevious ? 14 : 18
        return (
          <g key={bar.label} className={cx('ov-bar', `ov-bar--${bar.tone}`, active === i && 'ov-bar--active')} onPointerEnter={() => setActive(i)}>
            <rect className="ov-bar__hit" x={0} y={top} width={width} height={rowHeight} />
            <text className="ov-svg__label" x={pad} y={top + 15}>
              {bar.label}
            </text>
            {oneLine[i] ? (
              <text className="ov-svg__value" x={width - pad} y={top + 15} textAnchor="end">
                {bar.text}
              </text>
            ) : (
              <text className="ov-svg__value" x={pad} y={top + 33}>
                {bar.text}
              </text>
            )}
            <rect className="ov-bar__track" x={pad} y={barY} width={plotW} height={barH} rx={3} />
            <rect className="ov-bar__fill" x={x(lo)} y={barY} width={Math.max(hi > lo ? 2 : 0, x(hi) - x(lo))} height={barH} rx={3} />
            {bar.previous !== undefined && (
              <rect className="ov-bar__previous" x={pad} y={barY + barH + 3} width={Math.max(bar.previous > 0 ? 2 : 0, x(bar.previous) - pad)} height={5} rx={2} />
            )}
            {connect && i < bars.length - 1 && (
              <line className="ov-bar__connector" x1={x(bar.to)} x2={x(bar.to)} y1={barY + barH} y2={tops[i + 1] + (oneLine[i + 1] ? ROW : ROW_TWO_LINES) - 26} />
            )}
          </g>
        )
      })}
    </svg>
  )
}
