/**
 * The customer's websites (detail, removal, speed tests, analytics) and the agency's list of
 * every website with its status changes: API calls, and the pure rules the pages show them by
 * (score bands, figures, the score chart's geometry).
 */
import { api, type ResponseBody } from '../../lib/api-client'
import type { components } from '../../lib/api-schema'
import { layoutShift, milliseconds, seconds } from '../speedtest'

export type Website = components['schemas']['WebsiteOut']
export type WebsiteDetail = ResponseBody<'/api/sites/{site_id}', 'get'>
export type SpeedCheck = components['schemas']['SpeedCheckOut']
export type SpeedResult = NonNullable<WebsiteDetail['latest']>
export type ScorePoint = WebsiteDetail['history'][number]
export type SiteAnalytics = ResponseBody<'/api/sites/analytics', 'get'>['sites'][number]
export type AdminWebsite = ResponseBody<'/api/admin/sites', 'get'>['websites'][number]

export const STATUSES = ['building', 'live', 'paused', 'cancelled'] as const
export type SiteStatus = (typeof STATUSES)[number]

export const MSG_RUNNING = 'A speed test of this website is already running.'

export async function fetchWebsites(): Promise<Website[]> {
  return (await api.get('/api/sites')).websites
}

export async function fetchWebsite(id: number): Promise<WebsiteDetail> {
  return api.get('/api/sites/{site_id}', { params: { site_id: id } })
}

/** Removes a website from the owner's list; answers the websites left. */
export async function removeWebsite(id: number): Promise<Website[]> {
  return (await api.delete('/api/sites/{site_id}', undefined, { params: { site_id: id } })).websites
}

export async function startSpeedCheck(id: number): Promise<SpeedCheck> {
  return api.post('/api/sites/{site_id}/speed-tests', undefined, { params: { site_id: id } })
}

export async function fetchLatestCheck(id: number): Promise<SpeedCheck> {
  return api.get('/api/sites/{site_id}/speed-tests/latest', { params: { site_id: id } })
}

export async function fetchAnalytics(): Promise<SiteAnalytics[]> {
  return (await api.get('/api/sites/analytics')).sites
}

export async function fetchAdminWebsites(status: string, q: string): Promise<AdminWebsite[]> {
  const query = { status: status || undefined, q: q.trim() || undefined }
  return (await api.get('/api/admin/sites', { query })).websites
}

export async function setWebsiteStatus(id: number, status: SiteStatus): Promise<AdminWebsite> {
  return api.put('/api/admin/sites/{site_id}/status', { status }, { params: { site_id: id } })
}

/** True while a check has not ended. */
export function isRunning(check: SpeedCheck | null | undefined): boolean {
  return check?.status === 'queued' || check?.status === 'running'
}

/** A score as a whole number 0-100, or null. */
export function clampScore(score: number | null | undefined): number | null {
  if (typeof score !== 'number' || !Number.isFinite(score)) return null
  return Math.max(0, Math.min(100, Math.round(score)))
}

/** "Live", "Building", ... */
export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1)
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })
const timeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})

/** "24 Nov 2026"; the raw text when it is not a date. */
export function formatDay(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dayFormat.format(date)
}

/** "24 Nov 2026, 14:05"; the raw text when it is not a date. */
export function formatWhen(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : timeFormat.format(date)
}

/** The latest result's figures as [name, value] rows, the optional ones only when present. */
export function resultFigures(result: SpeedResult): [string, string][] {
  const rows: [string, string][] = [
    ['Speed Index', seconds(result.speed_index_ms)],
    ['Total Blocking Time', milliseconds(result.total_blocking_time_ms)],
  ]
  if (result.largest_contentful_paint_ms !== null)
    rows.push(['Largest Contentful Paint', seconds(result.largest_contentful_paint_ms)])
  if (result.cumulative_layout_shift !== null)
    rows.push(['Cumulative Layout Shift', layoutShift(result.cumulative_layout_shift)])
  if (result.first_contentful_paint_ms !== null)
    rows.push(['First Contentful Paint', seconds(result.first_contentful_paint_ms)])
  return rows
}

const FIELD_NAMES: Readonly<Record<string, string>> = {
  LCP: 'Largest Contentful Paint',
  INP: 'Interaction to Next Paint',
  CLS: 'Cumulative Layout Shift',
}
const FIELD_CATEGORIES: Readonly<Record<string, string>> = { FAST: 'Good', AVERAGE: 'Needs improvement', SLOW: 'Poor' }

/** Real-visitor data as [name, value, category] rows. */
export function fieldFigures(result: SpeedResult): [string, string, string][] {
  return result.field_data.map((m) => [
    FIELD_NAMES[m.name] ?? m.name,
    m.name === 'CLS' ? layoutShift(m.percentile) : m.name === 'LCP' ? seconds(m.percentile) : milliseconds(m.percentile),
    FIELD_CATEGORIES[m.category.toUpperCase()] ?? m.category,
  ])
}

export interface ChartGeometry {
  /** The line through the points (SVG path data); empty with no points. */
  path: string
  points: { x: number; y: number; score: number; at: string }[]
  /** The y of the 90 line (the 'Excellent' threshold). */
  goodY: number
}

/**
 * Where the history's points go in a `width` x `height` box with `pad` around: time runs left
 * to right evenly by test (tests are weeks apart, or minutes: evenly reads better), score 0 at
 * the bottom and 100 at the top. One point sits in the middle.
 */
export function chartGeometry(history: readonly ScorePoint[], width: number, height: number, pad = 16): ChartGeometry {
  const innerW = Math.max(0, width - 2 * pad)
  const innerH = Math.max(0, height - 2 * pad)
  const y = (score: number) => pad + innerH * (1 - (clampScore(score) ?? 0) / 100)
  const n = history.length
  const points = history.map((p, i) => ({
    x: n === 1 ? pad + innerW / 2 : pad + (innerW * i) / (n - 1),
    y: y(p.score),
    score: clampScore(p.score) ?? 0,
    at: p.at,
  }))
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${round(p.x)} ${round(p.y)}`).join(' ')
  return { path, points, goodY: y(90) }
}

function round(value: number): number {
  return Math.round(value * 10) / 10
}

/** A sentence describing the history, for the chart's accessible name. */
export function historySummary(domain: string, history: readonly ScorePoint[]): string {
  if (history.length === 0) return `No speed tests of ${domain} yet.`
  const last = history[history.length - 1]
  const first = history[0]
  if (history.length === 1) return `Speed score history of ${domain}: one test, ${last.score} out of 100.`
  return `Speed score history of ${domain}: ${history.length} tests, from ${first.score} to ${last.score} out of 100.`
}

export function websiteStatusTone(status: string): 'green' | 'yellow' | 'grey' {
  if (status === 'live') return 'green'
  if (status === 'building') return 'yellow'
  return 'grey'
}

/** The colour band of a page-speed score (as the speed test draws it). */
export function scoreBand(score: number | null): 'good' | 'average' | 'poor' | 'none' {
  if (score === null || score === undefined) return 'none'
  if (score >= 90) return 'good'
  if (score >= 50) return 'average'
  return 'poor'
}
