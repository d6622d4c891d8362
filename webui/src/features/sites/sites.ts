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
  /** `before`: the test measured the site before it went live. */
  points: { x: number; y: number; score: number; at: string; before: boolean }[]
  /** The y of the 90 line (the 'Excellent' threshold). */
  goodY: number
  /** The x of the 'Live' marker (between the last test before going live and the first one
   * after it), or null when the site has not gone live or has no tests. */
  liveX: number | null
}

/** Whether a test at `at` was before the site went live at `liveAt` (never, without one). */
export function beforeLive(at: string, liveAt: string | null | undefined): boolean {
  if (!liveAt) return false
  const test = new Date(at).getTime()
  const live = new Date(liveAt).getTime()
  return Number.isFinite(test) && Number.isFinite(live) && test < live
}

/**
 * Where the history's points go in a `width` x `height` box with `pad` around: time runs left
 * to right evenly by test (tests are weeks apart, or minutes: evenly reads better), score 0 at
 * the bottom and 100 at the top. One point sits in the middle.
 */
export function chartGeometry(
  history: readonly ScorePoint[],
  width: number,
  height: number,
  pad = 16,
  liveAt: string | null = null,
): ChartGeometry {
  const innerW = Math.max(0, width - 2 * pad)
  const innerH = Math.max(0, height - 2 * pad)
  const y = (score: number) => pad + innerH * (1 - (clampScore(score) ?? 0) / 100)
  const n = history.length
  const points = history.map((p, i) => ({
    x: n === 1 ? pad + innerW / 2 : pad + (innerW * i) / (n - 1),
    y: y(p.score),
    score: clampScore(p.score) ?? 0,
    at: p.at,
    before: beforeLive(p.at, liveAt),
  }))
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${round(p.x)} ${round(p.y)}`).join(' ')
  return { path, points, goodY: y(90), liveX: liveMarkerX(points, liveAt, width, pad) }
}

function liveMarkerX(points: ChartGeometry['points'], liveAt: string | null, width: number, pad: number): number | null {
  if (!liveAt || points.length === 0) return null
  const n = points.length
  const step = n > 1 ? points[1].x - points[0].x : Math.max(0, width - 2 * pad) / 2
  const before = points.filter((p) => p.before).length // the history is oldest first
  const x = before === 0 ? points[0].x - step / 2 : before === n ? points[n - 1].x + step / 2 : (points[before - 1].x + points[before].x) / 2
  return round(Math.max(pad / 2, Math.min(width - pad / 2, x)))
}

function round(value: number): number {
  return Math.round(value * 10) / 10
}

/** A sentence describing the history, for the chart's accessible name; with the day the site
 * went live, how many tests measured it before. */
export function historySummary(domain: string, history: readonly ScorePoint[], liveAt: string | null = null): string {
  const base = baseSummary(domain, history)
  if (!liveAt) return base
  const before = history.filter((p) => beforeLive(p.at, liveAt)).length
  const earlier =
    before === 0 ? '' : before === 1 ? ' The first test measured the site before it went live.' : ` The first ${before} tests measured the site before it went live.`
  return `${base} Live since ${formatDay(liveAt)}.${earlier}`
}

function baseSummary(domain: string, history: readonly ScorePoint[]): string {
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

/** While a site that went live is being measured, the pages read it again this often. */
export const MEASURING_POLL_MS = 10_000
export const MEASURING_TEXT = 'Measuring your new site: the first speed test of the live site is running. Its score appears here when it ends.'

/** Where "New Website" leads: the website plans on /start. */
export const NEW_WEBSITE_PATH = '/start?type=website'
export const BILLING_PATH = '/dashboard/billing'

/** What "New Website" says first to a customer who already subscribes: a website is a plan of
 * its own (each website plan is one website), so a new one is a second subscription. */
export function secondSubscriptionText(planName: string | null | undefined): string {
  const plan = planName ? `your ${planName} subscription` : 'your current subscription'
  return (
    `Each website is a plan of its own, so a new website starts a second subscription with its own monthly payment, ` +
    `next to ${plan}, which stays as it is.`
  )
}

/** What 'Remove' confirms, truthfully: removing only takes the site off the list (the agency
 * keeps its record); it cancels no subscription and changes no hosting. `subscribed`: the
 * customer's running subscription's plan name ('' when its name is unknown), or null for none
 * or not known. */
export function removeText(site: Pick<Website, 'domain' | 'status'>, subscribed: string | null): string {
  if (subscribed !== null) {
    const plan = subscribed ? `Your ${subscribed} subscription` : 'Your subscription'
    const work = site.status === 'live' ? ', and we keep hosting the site' : site.status === 'building' ? ', and we go on building the site' : ''
    return `Removing ${site.domain} only takes it off this list. ${plan} keeps running and being charged${work}. To stop paying, cancel the subscription on Billing first.`
  }
  if (site.status === 'live') {
    return `Removing ${site.domain} only takes it off this list: it does not take the site offline or change anything in Billing. This cannot be undone here.`
  }
  return `Remove ${site.domain} from your websites? This cannot be undone here.`
}
