import { describe, expect, it } from 'vitest'
import { chartGeometry, clampScore, fieldFigures, historySummary, isRunning, removeText, resultFigures, secondSubscriptionText, statusLabel, type SpeedResult } from './sites'

const result: SpeedResult = {
  score: 84,
  rating: 'Needs Improvement',
  speed_index_ms: 3180,
  total_blocking_time_ms: 1234,
  largest_contentful_paint_ms: 2500,
  cumulative_layout_shift: 0.1,
  first_contentful_paint_ms: null,
  field_data: [
    { name: 'LCP', percentile: 2300, category: 'AVERAGE' },
    { name: 'CLS', percentile: 0.05, category: 'FAST' },
  ],
  opportunities: [],
  provider: 'psi',
}

describe('sites rules', () => {
  it('clamps scores to whole numbers 0-100 and keeps missing ones missing', () => {
    expect([clampScore(95.4), clampScore(120), clampScore(-3), clampScore(null), clampScore(Number.NaN)]).toEqual([95, 100, 0, null, null])
  })

  it('reads a check as running while queued or running', () => {
    expect(['queued', 'running', 'done', 'failed'].map((status) => isRunning({ status } as never))).toEqual([true, true, false, false])
    expect(isRunning(null)).toBe(false)
  })

  it('lists the figures there are, optional ones only when present', () => {
    expect(resultFigures(result)).toEqual([
      ['Speed Index', '3.2 s'],
      ['Total Blocking Time', '1,234 ms'],
      ['Largest Contentful Paint', '2.5 s'],
      ['Cumulative Layout Shift', '0.10'],
    ])
    expect(fieldFigures(result)).toEqual([
      ['Largest Contentful Paint', '2.3 s', 'Needs improvement'],
      ['Cumulative Layout Shift', '0.05', 'Good'],
    ])
    expect(statusLabel('building')).toBe('Building')
  })

  it('places the history left to right, 100 at the top and 0 at the bottom', () => {
    const history = [
      { at: '2026-11-01T00:00:00Z', score: 100 },
      { at: '2026-11-08T00:00:00Z', score: 50 },
      { at: '2026-11-15T00:00:00Z', score: 0 },
    ]
    const g = chartGeometry(history, 240, 120, 20)
    expect(g.points.map((p) => [p.x, p.y])).toEqual([
      [20, 20],
      [120, 60],
      [220, 100],
    ])
    expect(g.path).toBe('M20 20 L120 60 L220 100')
    expect(g.goodY).toBeCloseTo(28)
    expect(chartGeometry([history[1]], 240, 120, 20).points[0].x).toBe(120)
    expect(chartGeometry([], 240, 120).path).toBe('')
  })

  it('keeps every point inside the box whatever the scores', () => {
    for (let n = 1; n <= 30; n += 1) {
      const history = Array.from({ length: n }, (_, i) => ({ at: String(i), score: (i * 37) % 131 - 10 }))
      for (const p of chartGeometry(history, 640, 220, 18).points) {
        expect(p.x).toBeGreaterThanOrEqual(18)
        expect(p.x).toBeLessThanOrEqual(622)
        expect(p.y).toBeGreaterThanOrEqual(18)
        expect(p.y).toBeLessThanOrEqual(202)
      }
    }
  })

  it('sums the history up in a sentence for the chart', () => {
    expect(historySummary('a.example', [])).toBe('No speed tests of a.example yet.')
    expect(historySummary('a.example', [{ at: 'x', score: 90 }])).toBe('Speed score history of a.example: one test, 90 out of 100.')
    expect(
      historySummary('a.example', [
        { at: 'x', score: 90 },
        { at: 'y', score: 70 },
      ]),
    ).toBe('Speed score history of a.example: 2 tests, from 90 to 70 out of 100.')
  })

  it('marks the day the site went live between the tests before and after it', () => {
    const history = [
      { at: '2026-11-01T10:00:00Z', score: 55 },
      { at: '2026-11-08T10:00:00Z', score: 57 },
      { at: '2026-11-20T10:00:00Z', score: 99 },
    ]
    const live = chartGeometry(history, 420, 200, 10, '2026-11-15T09:00:00Z')
    expect(live.points.map((p) => p.before)).toEqual([true, true, false])
    expect(live.liveX).toBe((live.points[1].x + live.points[2].x) / 2)
    // Every test after going live: the marker before the first; all before: after the last.
    const after = chartGeometry(history, 420, 200, 10, '2026-10-01T00:00:00Z')
    expect(after.liveX).toBeLessThan(after.points[0].x)
    expect(after.points.every((p) => !p.before)).toBe(true)
    const before = chartGeometry(history, 420, 200, 10, '2026-12-01T00:00:00Z')
    expect(before.liveX).toBeGreaterThan(before.points[2].x)
    expect(before.liveX).toBeLessThanOrEqual(420)
    // Not live, or no tests: no marker.
    expect(chartGeometry(history, 420, 200, 10).liveX).toBeNull()
    expect(chartGeometry([], 420, 200, 10, '2026-11-15T09:00:00Z').liveX).toBeNull()
  })

  it('says in the summary when the site went live and which tests came before', () => {
    const history = [
      { at: '2026-11-01T10:00:00Z', score: 55 },
      { at: '2026-11-20T10:00:00Z', score: 99 },
    ]
    expect(historySummary('a.example', history, '2026-11-15T09:00:00Z')).toBe(
      'Speed score history of a.example: 2 tests, from 55 to 99 out of 100. Live since 15 Nov 2026. The first test measured the site before it went live.',
    )
    expect(historySummary('a.example', history, null)).toBe('Speed score history of a.example: 2 tests, from 55 to 99 out of 100.')
  })

  it("says what removing does not do, and what a new website means for a subscriber", () => {
    const live = { domain: 'a.example', status: 'live' }
    expect(removeText(live, 'Professional')).toBe(
      'Removing a.example only takes it off this list. Your Professional subscription keeps running and being charged, and we keep hosting the site. To stop paying, cancel the subscription on Billing first.',
    )
    expect(removeText(live, '')).toContain('Your subscription keeps running')
    expect(removeText(live, null)).toBe(
      'Removing a.example only takes it off this list: it does not take the site offline or change anything in Billing. This cannot be undone here.',
    )
    expect(removeText({ domain: 'b.example', status: 'building' }, null)).toBe('Remove b.example from your websites? This cannot be undone here.')
    expect(removeText({ domain: 'b.example', status: 'building' }, 'Starter')).toContain('and we go on building the site.')
    expect(secondSubscriptionText('Premium')).toContain('a new website starts a second subscription with its own monthly payment, next to your Premium subscription')
    expect(secondSubscriptionText(null)).toContain('next to your current subscription')
  })
})
