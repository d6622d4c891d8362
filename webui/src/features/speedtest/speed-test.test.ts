import fc from 'fast-check'
import figureCases from '@test/fixtures/figure-cases.json'
import { describe, expect, it } from 'vitest'
import {
  MSG_BAD_DOMAIN,
  MSG_EMAIL_REQUIRED,
  MSG_URL_REQUIRED,
  SCAN_MS,
  checkSpeedTest,
  displayDomain,
  isTooSlow,
  layoutShift,
  milliseconds,
  ratingFor,
  scanProgress,
  seconds,
  stripGeneric,
  stripScheme,
  validHost,
  type SpeedSource,
} from './speed-test'

const SOURCES: SpeedSource[] = ['speed-test', 'clinic-speed-test', 'coach-speed-test']
const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
const alnum = `${letters}0123456789`
const char = (set: string) => fc.constantFrom(...set.split(''))
const str = (set: string, min: number, max: number) => fc.string({ unit: char(set), minLength: min, maxLength: max })
/** A valid label: letters/digits at both ends, hyphens inside, 1-63 characters. */
const label = fc.oneof(
  str(alnum, 1, 1),
  fc.tuple(str(alnum, 1, 1), str(`${alnum}-`, 0, 61), str(alnum, 1, 1)).map(([a, b, c]) => a + b + c),
)
const tld = str(letters, 2, 10)
const host = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld).map(([labels, top]) => [...labels, top].join('.')).filter((h) => h.length <= 253)
const prefix = fc.constantFrom('', 'http://', 'https://', 'HTTPS://', 'www.', 'https://www.', 'http://WWW.')
const blank = fc.constantFrom('', ' ', '  ', '\t', ' \n ')

describe('the pages\' checks (spec §5)', () => {
  it('a valid host, with or without scheme, www. and one trailing slash, passes the generic page', () => {
    fc.assert(
      fc.property(prefix, host, fc.boolean(), blank, (pre, h, slash, pad) => {
        const typed = `${pad}${pre}${h}${slash ? '/' : ''}${pad}`
        expect(stripGeneric(typed)).toBe(h)
        expect(checkSpeedTest('speed-test', typed, 'ann@example.com')).toBeNull()
      }),
    )
  })

  it('the URL is checked first, then the e-mail, then (generic page only) the domain', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SOURCES), blank, blank, fc.string(), (source, url, email, junk) => {
        expect(checkSpeedTest(source, url, junk)).toEqual({ message: MSG_URL_REQUIRED, fields: { url: MSG_URL_REQUIRED } })
        expect(checkSpeedTest(source, `not a domain${junk}`, email)).toEqual({ message: MSG_EMAIL_REQUIRED, fields: { email: MSG_EMAIL_REQUIRED } })
      }),
    )
  })

  it('the clinic and coach pages take any non-empty URL; the generic page refuses what is not a host', () => {
    const bad = fc.oneof(
      label, // one label, no top-level part
      fc.tuple(host, str('0123456789', 1, 3)).map(([h, d]) => `${h}${d}`), // top-level part with digits
      fc.tuple(host, fc.constantFrom('/page', ' x', '_', '..', ':8080')).map(([h, tail]) => h + tail),
      fc.tuple(label, fc.constantFrom('-'), tld).map(([a, b, c]) => `${a}${b}.${c}`), // label ending in a hyphen
      fc.tuple(str(letters, 1, 1), tld).map(([a, t]) => `${a}.${t}.`), // trailing dot
      fc.constantFrom('localhost', 'http://', 'www.', '127.0.0.1', 'ex ample.com', `${'a'.repeat(64)}.com`, 'example.c'),
    )
    fc.assert(
      fc.property(bad, (typed) => {
        expect(checkSpeedTest('speed-test', typed, 'ann@example.com')).toEqual({ message: MSG_BAD_DOMAIN, fields: { url: MSG_BAD_DOMAIN } })
        expect(checkSpeedTest('clinic-speed-test', typed, 'ann@example.com')).toBeNull()
        expect(checkSpeedTest('coach-speed-test', typed, 'ann@example.com')).toBeNull()
      }),
    )
  })

  it('the message names the example host word for word', () => {
    expect(MSG_BAD_DOMAIN).toBe('Please enter a valid domain (e.g., example.com)')
  })

  it('validHost agrees with a plain reading of the rule', () => {
    const reference = (h: string) =>
      h.length <= 253 &&
      /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59}[A-Za-z0-9])$/.test(h)
    fc.assert(fc.property(fc.oneof(host, fc.string(), str(`${alnum}.-`, 0, 30)), (h) => {
      expect(validHost(h)).toBe(reference(h))
    }))
  })

  it('the clinic and coach pages strip only the scheme', () => {
    fc.assert(
      fc.property(prefix, host, (pre, h) => {
        const typed = `${pre}${h}/path`
        expect(stripScheme(typed)).toBe(typed.replace(/^https?:\/\//i, ''))
        expect(displayDomain('clinic-speed-test', typed)).toBe(stripScheme(`${pre}${h}`))
      }),
    )
    expect(displayDomain('speed-test', 'https://www.Example.com/')).toBe('example.com')
  })
})

describe('rating (spec §9)', () => {
  it('90+ Excellent (green), 70-89 Needs Improvement (yellow), below 70 Poor (red); Too Slow below 90', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), (score) => {
        const { label, tone } = ratingFor(score)
        if (score >= 90) expect([label, tone]).toEqual(['Excellent', 'good'])
        else if (score >= 70) expect([label, tone]).toEqual(['Needs Improvement', 'fair'])
        else expect([label, tone]).toEqual(['Poor', 'poor'])
        expect(isTooSlow(score)).toBe(score < 90)
      }),
    )
    expect([ratingFor(89).label, ratingFor(90).label, ratingFor(69).label, ratingFor(70).label]).toEqual([
      'Needs Improvement', 'Excellent', 'Poor', 'Needs Improvement',
    ])
  })
})

describe('scan progress (spec §9: about 25 s in 50 ms steps)', () => {
  it('follows the spec pace up to 90%', () => {
    expect(scanProgress(0)).toBe(0)
    expect(scanProgress(SCAN_MS / 2)).toBeCloseTo(50)
    expect(scanProgress(0.9 * SCAN_MS)).toBeCloseTo(90)
    expect(scanProgress(50)).toBeCloseTo(0.2)
  })

  it('never goes back and never reaches 99, however long the test takes', () => {
    fc.assert(
      fc.property(fc.nat(10 * 60_000), fc.nat(10 * 60_000), (a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a]
        expect(scanProgress(late)).toBeGreaterThanOrEqual(scanProgress(early))
        expect(scanProgress(late)).toBeLessThan(99)
      }),
    )
    expect(scanProgress(60_000)).toBeGreaterThan(95) // still moving after a minute
  })
})

describe('figures', () => {
  // The same table as the report e-mail's test (tests/speedtest/test_figure_cases.py): the
  // page and the e-mail say the same saving for the same test.
  it.each(figureCases.seconds.map(([ms, text]) => [Number(ms), String(text)] as const))('seconds(%s) is "%s", as in the e-mail', (ms, text) => {
    expect(seconds(ms)).toBe(text)
  })
  it.each(figureCases.milliseconds.map(([ms, text]) => [Number(ms), String(text)] as const))('milliseconds(%s) is "%s", as in the e-mail', (ms, text) => {
    expect(milliseconds(ms)).toBe(text)
  })
  it.each(figureCases.layout_shift.map(([value, text]) => [Number(value), String(text)] as const))('layoutShift(%s) is "%s", as in the e-mail', (value, text) => {
    expect(layoutShift(value)).toBe(text)
  })

  it('writes seconds, milliseconds and CLS as the report does', () => {
    expect(seconds(3180)).toBe('3.2 s')
    expect(seconds(0)).toBe('0.0 s')
    expect(milliseconds(1234.4)).toBe('1,234 ms')
    expect(milliseconds(90)).toBe('90 ms')
    expect(layoutShift(0.1)).toBe('0.10')
    fc.assert(
      fc.property(fc.nat(10_000_000), (ms) => {
        expect(Number(milliseconds(ms).replace(/,| ms/g, ''))).toBe(ms)
        // Whole milliseconds: 4168.6 * 1000 is 4168600.0000000005 in floating point.
        expect(Math.abs(Math.round(Number(seconds(ms).replace(' s', '')) * 1000) - ms)).toBeLessThanOrEqual(50)
      }),
    )
  })
})
