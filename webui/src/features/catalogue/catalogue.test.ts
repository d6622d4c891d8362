import { describe, expect, it } from 'vitest'
import { testCatalogue } from '@test/catalogue'
import { familyPlans, formatPrice, planByPriceId } from './catalogue'
import { badgeLabel, badgeTone, billingSuffix } from './labels'
import { resolveStart } from './start'

const resolve = (type: string | null, plan: string | null = null) => {
  const found = resolveStart(testCatalogue, type, plan)
  return found && [found.family.key, found.plan?.key ?? null]
}

describe('catalogue helpers', () => {
  it('formats prices without decimals when whole', () => {
    expect(formatPrice(1900, 'EUR')).toBe('€19')
    expect(formatPrice(199900, 'EUR')).toBe('€1,999')
    expect(formatPrice(249700)).toBe('€2,497')
    expect(formatPrice(1950, 'EUR')).toBe('€19.50')
  })

  it('gives the billing suffix by mode', () => {
    expect(billingSuffix({ mode: 'subscription', interval: 'month' })).toBe('/month')
    expect(billingSuffix({ mode: 'payment', interval: null })).toBe('one-time')
  })

  it('words the badges, "Perfect for Clinics" for leadgen', () => {
    expect(badgeLabel('popular', 'website')).toBe('Most Popular')
    expect(badgeLabel('popular', 'leadgen')).toBe('Perfect for Clinics')
    expect(badgeLabel('premium', 'ugc')).toBe('Premium')
    expect(badgeLabel('launch', 'rebuild')).toBe('Launch Offer')
    expect(badgeLabel(null, 'website')).toBeNull()
  })

  it('never colours a badge green, the colour of the "Save N%" pill', () => {
    expect(badgeTone('launch')).toBe('yellow')
    expect(badgeTone('popular')).toBe('purple')
    expect(badgeTone('premium')).toBe('blue')
    for (const badge of ['popular', 'premium', 'launch'] as const) expect(badgeTone(badge)).not.toBe('green')
  })

  it('resolves each family to its default plan', () => {
    expect(resolve(null)).toEqual(['website', 'professional'])
    expect(resolve('website')).toEqual(['website', 'professional'])
    expect(resolve('ai-booking')).toEqual(['ai-booking', 'ai-booking-pro'])
    expect(resolve('ai-scale')).toEqual(['ai-scale', 'ai-scale-growth'])
    expect(resolve('ai-onboarding')).toEqual(['ai-onboarding', 'ai-onboarding-pro'])
    expect(resolve('leadgen')).toEqual(['leadgen', 'landing-page-rebuild'])
    expect(resolve('rebuild')).toEqual(['rebuild', 'pro-rebuild'])
    expect(resolve('ai')).toEqual(['ai', 'pro-ai'])
    expect(resolve('ugc')).toEqual(['ugc', 'conversion-bundle'])
  })

  it('uses an explicit plan of the family, or of any family without a type', () => {
    expect(resolve('ugc', 'custom-campaign')).toEqual(['ugc', 'custom-campaign'])
    expect(resolve(null, 'starter-ai')).toEqual(['ai', 'starter-ai'])
    expect(resolve('bogus', 'premium')).toEqual(['website', 'premium'])
  })

  it('falls back to the default for unknown or mismatched plans and unsold families', () => {
    expect(resolve('ugc', 'premium')).toEqual(['ugc', 'conversion-bundle'])
    expect(resolve('ugc', 'nope')).toEqual(['ugc', 'conversion-bundle'])
    expect(resolve('bogus')).toEqual(['website', 'professional'])
    // The funnel family is never sold through /start.
    expect(resolve('funnel')).toEqual(['website', 'professional'])
    expect(resolve(null, 'growth-funnel')).toEqual(['website', 'professional'])
  })

  it('lists family plans in order and finds a plan by price id', () => {
    expect(familyPlans(testCatalogue, 'website').map((p) => p.key)).toEqual(['starter', 'professional', 'premium'])
    expect(planByPriceId(testCatalogue, 'price_premium')?.name).toBe('Premium')
    expect(planByPriceId(testCatalogue, null)).toBeUndefined()
  })
})
