import { describe, expect, it } from 'vitest'
import { niceScale } from './charts'
import { change, csvMoney, hours, isEmpty, percentOf, periodFromParams, periodParams, rangeProblem, shortDay, dayTime, toCsv } from './overview'
import { emptyOverview, testOverview } from '@test/overview'

describe('the period in the address', () => {
  it('reads the known periods, a custom range with its days, and anything else as this month', () => {
    expect(periodFromParams(new URLSearchParams(''))).toEqual({ period: 'this_month', start: '', end: '' })
    expect(periodFromParams(new URLSearchParams('period=last_quarter&start=2026-01-01'))).toEqual({ period: 'last_quarter', start: '', end: '' })
    expect(periodFromParams(new URLSearchParams('period=custom&start=2026-09-01&end=2026-09-15'))).toEqual({
      period: 'custom',
      start: '2026-09-01',
      end: '2026-09-15',
    })
    expect(periodFromParams(new URLSearchParams('period=forever'))).toEqual({ period: 'this_month', start: '', end: '' })
  })

  it('writes this month as no query, the others by key, a custom range with its days', () => {
    expect(periodParams({ period: 'this_month', start: '', end: '' })).toEqual({})
    expect(periodParams({ period: 'last_30_days', start: '', end: '' })).toEqual({ period: 'last_30_days' })
    expect(periodParams({ period: 'custom', start: '2026-09-01', end: '2026-09-15' })).toEqual({ period: 'custom', start: '2026-09-01', end: '2026-09-15' })
  })

  it('asks for both days of a custom range, in order', () => {
    expect(rangeProblem('', '2026-09-15')).toBe('Choose a first and a last day.')
    expect(rangeProblem('2026-09-15', '2026-09-01')).toBe('The last day must not be before the first day.')
    expect(rangeProblem('2026-09-15', '2026-09-15')).toBeNull()
  })
})

describe('how figures read', () => {
  it('says the change in words', () => {
    expect(change(348700, 310000)).toEqual({ direction: 'up', text: 'Up 12%' })
    expect(change(301250, 298000)).toEqual({ direction: 'up', text: 'Up 1.1%' })
    expect(change(90, 100)).toEqual({ direction: 'down', text: 'Down 10%' })
    expect(change(7, 7)).toEqual({ direction: 'same', text: 'No change' })
    expect(change(2, 0)).toEqual({ direction: 'new', text: 'Up from zero' })
    expect(change(0, 0)).toEqual({ direction: 'same', text: 'No change' })
  })

  it('writes shares, hours, days and money for CSV', () => {
    expect(percentOf(7, 12)).toBe('58.3%')
    expect(percentOf(1, 0)).toBe('—')
    expect(hours(null)).toBe('—')
    expect(hours(0.25)).toBe('15 min')
    expect(hours(2.5)).toBe('2.5 h')
    expect(hours(52)).toBe('2.2 days')
    expect(shortDay('2026-11-03')).toBe('3 Nov')
    expect(shortDay('2026-11-03', true)).toBe('3 Nov 2026')
    expect(dayTime('2026-11-20T09:15:00+00:00')).toBe('20 Nov 2026, 09:15 UTC')
    expect(csvMoney(348700)).toBe('3487.00')
    expect(csvMoney(-3005)).toBe('-30.05')
    expect(csvMoney(5)).toBe('0.05')
  })

  it('finds round scales', () => {
    expect(niceScale(348700)).toEqual({ max: 400000, step: 100000 })
    expect(niceScale(0)).toEqual({ max: 1, step: 0.25 })
    expect(niceScale(10000)).toEqual({ max: 10000, step: 2500 })
  })

  it('tells a new install from a business with figures', () => {
    expect(isEmpty(emptyOverview())).toBe(true)
    // The admins' own accounts are sign-ups, not business.
    const signups = emptyOverview()
    signups.funnel.steps = signups.funnel.steps.map((s) => (s.key === 'signups' ? { ...s, current: 2 } : s))
    expect(isEmpty(signups)).toBe(true)
    expect(isEmpty(testOverview)).toBe(false)
  })
})

describe('CSV', () => {
  it('quotes what needs quoting and keeps formulas from running', () => {
    expect(toCsv(['Name', 'Amount'], [['Ada, "the" first', -30.5], ['=HYPERLINK("x")', '-12.00'], ['+1', null], ['line\nbreak', 3]])).toBe(
      'Name,Amount\r\n"Ada, ""the"" first",-30.5\r\n"\'=HYPERLINK(""x"")",-12.00\r\n\'+1,\r\n"line\nbreak",3\r\n',
    )
  })
})
