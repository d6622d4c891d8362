import { describe, expect, it } from 'vitest'
import { auditCsv, changesOf, csvCell, fieldLabel, filterQuery, filtersFrom, valueText, type AuditEntry } from './audit'

const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: 1,
  at: '2026-11-26T21:40:12Z',
  actor_id: 2,
  actor_email: 'grace@agency.example',
  actor_label: 'grace@agency.example',
  action: 'site.status_changed',
  action_label: 'Website status changed',
  target_type: 'site',
  target_id: '7',
  target_label: 'shop.example',
  before: { status: 'building' },
  after: { status: 'live' },
  ...over,
})

describe('the audit log helpers', () => {
  it('lists the changed fields, before first, with readable values', () => {
    expect(changesOf(entry())).toEqual([{ field: 'status', label: 'Status', before: 'building', after: 'live' }])
    expect(changesOf(entry({ before: { status: 'open' }, after: { status: 'answered', reply_id: 12 } }))).toEqual([
      { field: 'status', label: 'Status', before: 'open', after: 'answered' },
      { field: 'reply_id', label: 'Reply', before: '—', after: '12' },
    ])
    expect(changesOf(entry({ before: null, after: null }))).toEqual([])
    expect(changesOf(entry({ before: 'x', after: ['a'] }))).toEqual([{ field: 'value', label: 'Value', before: 'x', after: '["a"]' }])
  })

  it('shows a price in cents as money beside its currency, and yes/no for a switch', () => {
    const price = changesOf(entry({ before: { price: 2900, currency: 'EUR' }, after: { price: 3900, currency: 'EUR' } }))
    expect(price).toEqual([{ field: 'price', label: 'Price', before: '€29.00', after: '€39.00' }])
    expect(changesOf(entry({ before: { on_sale: true }, after: { on_sale: false } }))[0]).toMatchObject({ before: 'yes', after: 'no' })
    expect(valueText('price', 2950, {})).toBe('2950') // no currency: as stored
    expect(valueText('price', 2950, { currency: 'usd' })).toBe('US$29.50')
    expect(valueText('price', 2950, { currency: 'not a currency' })).toBe('29.50 not a currency')
    expect(fieldLabel('delivery_days')).toBe('Delivery days')
  })

  it('keeps only the filters that are set', () => {
    const filters = filtersFrom(new URLSearchParams('action=site.status_changed&actor=%20&since=2026-11-01'))
    expect(filterQuery(filters)).toEqual({ action: 'site.status_changed', since: '2026-11-01' })
  })

  it('writes the CSV one row per changed field, quoted and defused', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('=HYPERLINK(1)')).toBe("'=HYPERLINK(1)")
    const csv = auditCsv([
      entry({ before: { status: 'open' }, after: { status: 'answered', reply_id: 3 }, target_label: '#3 Hello, there' }),
      entry({ id: 2, before: null, after: null }),
    ])
    expect(csv.split('\r\n')).toEqual([
      'Time (UTC),Who,Action,Target type,Target id,Target,Field,Before,After',
      '2026-11-26T21:40:12Z,grace@agency.example,Website status changed,site,7,"#3 Hello, there",Status,open,answered',
      '2026-11-26T21:40:12Z,grace@agency.example,Website status changed,site,7,"#3 Hello, there",Reply,—,3',
      '2026-11-26T21:40:12Z,grace@agency.example,Website status changed,site,7,shop.example,,,',
      '',
    ])
  })
})
